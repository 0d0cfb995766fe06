/**
 * Step one of a download: the `.part` left by an earlier attempt or run, and whether it can be
 * continued. What the sink holds (its bytes and the validator in the sidecar) is where the
 * first request starts; a `.part` that is already complete (left just before its rename) is
 * verified and published with no request at all.
 */
import type { Validator } from './range-resume.js';
import type { Sink } from './sink.js';
import { asLocal } from './errors.js';
import type { DownloadResult, MediaTarget } from './types.js';

/** Where the next request starts: the bytes held, and what lets a ranged request continue them. */
export interface ResumePoint {
  offset: number;
  validator?: Validator;
}

/** The resume point of the claimed file, or its result when the `.part` needed only its rename. */
export async function openPart(target: MediaTarget, sink: Sink, cap: number): Promise<{ point: ResumePoint } | { complete: DownloadResult }> {
  const initial = await sink.resumeState(target.url).catch(asLocal(target));
  const { offset, validator } = initial;
  // A complete `.part` left just before its rename needs no request at all.
  if (validator?.total !== undefined && offset === validator.total && offset > 0 && offset <= cap) {
    await sink.open(offset).catch(asLocal(target));
    const size = await sink.finish(target.kind, validator.total, `the ${target.what}`);
    return { complete: { received: 0, size, resumed: true } };
  }
  return { point: { offset, ...(validator ? { validator } : {}) } };
}
