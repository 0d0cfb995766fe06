/**
 * `image`/`video`, step two: the media jobs of one exercise. With names, the jobs are built
 * under the typed text (no record request); without, from the record's premium fields, with
 * entries no URL can fetch named on stderr. `realId` resolves the text once when the service
 * had no media under it (a name typed instead of an id).
 */
import type { Context } from '../../context.js';
import { langInForce } from '../../config/settings.js';
import { AuthError, NotFoundError } from '../../errors.js';
import { MEDIA, type MediaKind } from '../../catalogue/media.js';
import { type MediaJob, type UnusableEntry, describeUnusable, jobsForRecord, mediaJob, uniqueJobs } from '../../media/jobs.js';
import { hasMediaFields } from '../../media/media-names.js';
import type { ApiClient } from '../../api/client.js';
import { writeNotice } from '../../output/notice.js';

export const PLURAL: Record<MediaKind, string> = { image: 'images', video: 'videos' };

export interface FoundJobs {
  jobs: MediaJob[];
  /** Entries of the record no URL can fetch: named on stderr, the others still fetched, exit 7. */
  unusable: UnusableEntry[];
  /** The named media's jobs under another id (the record's real one). */
  jobsFor(exerciseId: string): MediaJob[];
  /**
   * After a 404 for media named under the typed text: the record's id when the text is not it
   * (a name, say), else undefined. One record request; an unknown id or name throws NotFoundError.
   */
  realId(): Promise<string | undefined>;
}

export async function findJobs(ctx: Context, api: ApiClient, idOrName: string, options: { kind: MediaKind; names: string[]; dir: string }): Promise<FoundJobs> {
  const { kind, names, dir } = options;
  const jobsFor = (exerciseId: string): MediaJob[] => uniqueJobs(names.map((entry) => mediaJob(api, dir, exerciseId, kind, entry)));
  const realId = async (): Promise<string | undefined> => {
    if (names.length === 0) return undefined; // the jobs already came from the record
    const lang = langInForce(ctx.settings());
    const record = await api.getExercise(idOrName, lang ? { lang } : {});
    return record.id !== undefined && record.id !== idOrName ? record.id : undefined;
  };
  const unusable: UnusableEntry[] = [];
  if (names.length > 0) return { jobs: jobsFor(idOrName), unusable, jobsFor, realId };

  const lang = langInForce(ctx.settings());
  const record = await api.getExercise(idOrName, lang ? { lang } : {});
  const jobs = jobsForRecord(api, dir, record.id ?? idOrName, record, [kind], (u) => {
    unusable.push(u);
    writeNotice(ctx.io, `Skipped: ${describeUnusable(u)}`);
  });
  if (jobs.length === 0 && unusable.length === 0) {
    // No media field at all is the plan's answer (a free plan's records never carry them): exit 3, not "not found".
    if (!hasMediaFields(record, [kind])) {
      throw new AuthError(`Your plan does not include premium ${PLURAL[kind]}: the record of "${idOrName}" carries no ${MEDIA[kind].field}.`, {
        forbidden: true,
        hint: 'Premium media need a premium plan key (`exercises auth login`); `exercises auth status` shows the key in use.',
      });
    }
    throw new NotFoundError(`The exercise "${idOrName}" lists no premium ${PLURAL[kind]}.`, { hint: `\`exercises show ${idOrName}\` shows what it has.` });
  }
  return { jobs, unusable, jobsFor, realId };
}
