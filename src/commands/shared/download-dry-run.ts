/**
 * `download --dry-run`: the files a run would fetch, resume (a `.part` is there) or skip, as
 * JSON, aligned columns on a terminal, or TSV; the request count on stderr. Paths are shown as
 * `--dir` was given (relative stays relative); the JSON keeps them absolute for programs.
 */
import { type Context, outputFormat } from '../../context.js';
import { type DownloadPlan, type DryRunRow, dryRunRows } from '../../media/plan.js';
import { alignedRows } from '../../output/aligned.js';
import { tsvLine } from '../../output/fields.js';
import { writeNotice } from '../../output/notice.js';
import { shownPath } from '../../output/shown-path.js';
import { plural } from '../../util/text.js';

/**
 * `--dry-run`: what would be fetched (a row per file), and on stderr the requests it would spend.
 * Its catalogue answers went through the response cache (unless --no-cache), so the run right
 * after plans for free: the last line says so, with what it saves.
 */
export async function printDryRun(ctx: Context, plan: DownloadPlan, skipExisting: boolean, dirGiven?: string): Promise<void> {
  const rows = await dryRunRows(plan, skipExisting);
  // A resume is a request like any fetch.
  const toFetch = rows.filter((r) => r.action !== 'skip').length;
  const toResume = rows.filter((r) => r.action === 'resume').length;
  const cells = (r: DryRunRow): string[] => [r.action, r.job.exerciseId, r.job.kind, r.job.name, shownPath(r.job.path, dirGiven)];
  if (outputFormat(ctx) === 'json') {
    const files = rows.map((r) => ({ action: r.action, id: r.job.exerciseId, kind: r.job.kind, name: r.job.name, url: r.job.url.href, path: r.job.path }));
    ctx.io.stdout.write(`${JSON.stringify({ dryRun: true, mediaRequests: toFetch, catalogueRequests: plan.requests, files })}\n`);
  } else if (outputFormat(ctx) === 'table') {
    // On a terminal: aligned columns for a person to read.
    ctx.io.stdout.write(alignedRows(rows.map(cells)));
  } else {
    for (const r of rows) ctx.io.stdout.write(tsvLine(cells(r)));
  }
  const resuming = toResume > 0 ? ` (${toResume} resumed from a .part)` : '';
  const sentence =
    `Dry run: would fetch ${plural(toFetch, 'file')}${resuming} with ${plural(toFetch, 'media request')}; ` +
    `${rows.length - toFetch} already present would be skipped; ${plural(plan.requests, 'catalogue request')} ${plan.requests === 1 ? 'was' : 'were'} made to list them` +
    (ctx.globals.cache && plan.requests > 0
      ? `, kept in the response cache: the run right after spends none on them (${plural(plan.requests, 'request')} saved).`
      : '.');
  writeNotice(ctx.io, sentence);
}
