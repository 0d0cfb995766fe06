/**
 * Step four of a download: once a body has ended, whether the file is whole. A socket failure
 * or a body that stopped short is a failure the budget may retry from the bytes held (the
 * caller asks again); a whole file is verified and renamed into place by its sink.
 */
import { type CliError, InterruptedError, NetworkError } from '../../errors.js';
import { isRetryableError } from '../../http/retry-policy.js';
import type { Answer } from './ranged-request.js';
import type { ResumePoint } from './part-resume.js';
import type { RetryBudget } from './retry-budget.js';
import type { Sink } from './sink.js';
import type { DownloadOptions, MediaTarget } from './types.js';

/** The complete file's size, or undefined when the caller is to ask again from `point` (updated). */
export async function completeFile(
  target: MediaTarget,
  sink: Sink,
  answer: Pick<Answer, 'total' | 'end'>,
  sourceError: unknown,
  point: ResumePoint,
  options: DownloadOptions,
  budget: RetryBudget,
): Promise<number | undefined> {
  const { signal, transport } = options;
  if (signal?.aborted === true) throw new InterruptedError(); // the `.part` and its sidecar stay for the rerun
  if (sourceError !== undefined) {
    const mapped = transport.streamError?.(sourceError, target.url, signal) ?? (sourceError as CliError);
    if (!isRetryableError(mapped) && !isRetryableError(sourceError)) throw mapped;
    point.offset = sink.size();
    await budget.failed(
      mapped instanceof NetworkError ? mapped : new NetworkError(`The connection dropped while fetching the ${target.what}.`, { cause: sourceError }),
    );
    return undefined;
  }

  const held = sink.size();
  const { end } = answer;
  if (end !== undefined && held < end) {
    // The body ended early without an error: a truncated answer, continued like a dropped one.
    point.offset = held;
    await budget.failed(new NetworkError(`The server sent ${held} of ${end} bytes of the ${target.what} and stopped.`));
    return undefined;
  }
  return sink.finish(target.kind, answer.total, `the ${target.what}`);
}
