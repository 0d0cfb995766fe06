/** `download --dry-run`: the files a run would fetch or skip, as JSON, aligned columns on a terminal, or TSV; the request count on stderr. */
import { type Context, outputFormat } from '../../context.js';
import { type DownloadPlan, dryRunRows } from '../../media/plan.js';
import { alignedRows } from '../../output/aligned.js';
import { tsvLine } from '../../output/delimited.js';
import { fitLines } from '../../output/wrap.js';
import { plural } from '../../util/text.js';

/** `--dry-run`: what would be fetched (a row per file), and on stderr the requests it would spend. */
export async function printDryRun(ctx: Context, plan: DownloadPlan, skipExisting: boolean): Promise<void> {
  const rows = await dryRunRows(plan, skipExisting);
  const toFetch = rows.filter((r) => r.action === 'fetch').length;
  if (outputFormat(ctx) === 'json') {
    const files = rows.map((r) => ({ action: r.action, id: r.job.exerciseId, kind: r.job.kind, name: r.job.name, url: r.job.url.href, path: r.job.path }));
    ctx.io.stdout.write(`${JSON.stringify({ dryRun: true, mediaRequests: toFetch, catalogueRequests: plan.requests, files })}\n`);
  } else if (outputFormat(ctx) === 'table') {
    // On a terminal: aligned columns for a person to read.
    ctx.io.stdout.write(alignedRows(rows.map((r) => [r.action, r.job.exerciseId, r.job.kind, r.job.name, r.job.path])));
  } else {
    for (const r of rows) ctx.io.stdout.write(tsvLine([r.action, r.job.exerciseId, r.job.kind, r.job.name, r.job.path]));
  }
  const sentence =
    `Dry run: would fetch ${plural(toFetch, 'file')} with ${plural(toFetch, 'media request')}; ` +
    `${rows.length - toFetch} already present would be skipped; ${plural(plan.requests, 'catalogue request')} ${plan.requests === 1 ? 'was' : 'were'} made to list them.`;
  ctx.io.stderr.write(`${fitLines(sentence, ctx.io.stderrIsTTY, ctx.io.columns)}\n`);
}
