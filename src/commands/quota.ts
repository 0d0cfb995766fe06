/**
 * `exercises quota`: this month's requests to the connection in force, the budget and what remains,
 * and the last rate-limit headers (key redacted). Reads the ledger only; `--reset-month` sets the count to 0.
 */
import { type Context, outputFormat } from '../context.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples } from './shared/help.js';
import { redactorFor } from '../util/text.js';
import { usageLine, connectionUsage, resetConnectionMonth } from '../cache/usage.js';
import { budgetFor } from '../connection.js';
import { fitLines } from '../output/wrap.js';
import { proxyBudget, proxyBudgetLine } from '../proxy/budget-words.js';

export interface QuotaOptions {
  resetMonth?: boolean;
}

function ledgerKey(ctx: Context, conn: Awaited<ReturnType<Context['connection']>>) {
  return { env: ctx.env, baseUrl: conn.baseUrl, baseUrlSource: conn.baseUrlSource, apiKey: conn.apiKey };
}

/** The usage of the connection in force (no key needed). */
async function usageInForce(ctx: Context) {
  const conn = await ctx.connection();
  const usage = await connectionUsage({ ...ledgerKey(ctx, conn), budget: budgetFor(conn, ctx.settings()) });
  if (usage.rateLimit) {
    const redact = redactorFor(conn.apiKey);
    const headers = Object.fromEntries(Object.entries(usage.rateLimit.headers).map(([name, value]) => [redact(name), redact(String(value))]));
    usage.rateLimit = { ...usage.rateLimit, headers };
  }
  return { ...usage, local: conn.local === true };
}

/** The one line `auth status` shows. */
export async function quotaLine(ctx: Context): Promise<string> {
  return usageLine(await usageInForce(ctx));
}

export async function run(options: QuotaOptions, ctx: Context): Promise<void> {
  if (options.resetMonth) {
    const reset = await resetConnectionMonth(ledgerKey(ctx, await ctx.connection()));
    if (!ctx.globals.quiet) ctx.io.stderr.write(`${reset}\n`);
  }
  const usage = await usageInForce(ctx);
  const format = outputFormat(ctx);
  const proxy = proxyBudget(usage.rateLimit);
  if (format === 'json' || format === 'jsonl') {
    const { month, requests, budget, remaining, origin, rateLimit } = usage;
    ctx.io.stdout.write(`${JSON.stringify({ month, requests, budget, remaining, origin, rateLimit, ...(proxy ? { proxy } : {}) })}\n`);
    return;
  }
  const lines = [usageLine(usage)];
  if (proxy) lines.push(proxyBudgetLine(proxy));
  else if (usage.rateLimit) {
    const seen = new Date(usage.rateLimit.seenAt).toISOString();
    const headers = Object.entries(usage.rateLimit.headers).map(([name, value]) => `${name}: ${value}`);
    lines.push(`Last rate-limit headers (${seen}): ${headers.join('; ')}`);
  } else lines.push('The service has sent no rate-limit headers yet.');
  // A budget never stops local answers, nor a proxy's clients when the proxy holds one.
  if (usage.budget === null && !usage.local && (proxy === undefined || proxy.limit === null))
    lines.push('Set a budget with `exercises config set budget <n>` (or --budget <n> for one run).');
  ctx.io.stdout.write(`${fitLines(lines.join('\n'), ctx.io.stdoutIsTTY, ctx.io.columns)}\n`);
}

export const register: RegisterCommand<QuotaOptions> = (program, context, runF = run) => {
  const cmd = program
    .command('quota')
    .description('requests sent this month (UTC) to the service in use, the budget and what remains; sends nothing')
    .option('--reset-month', "set this month's request count for the service and key in use back to 0 (also repairs a corrupt ledger)");
  addExamples(
    cmd,
    ['exercises quota', 'exercises --budget 100 quota', 'exercises config set budget 100', 'exercises quota --reset-month'],
    ['exercises quota --json | jq .remaining', 'exercises quota --json | jq -r .month'],
  );
  cmd.action((flags: { resetMonth?: boolean }) => runF(flags.resetMonth ? { resetMonth: true } : {}, context()));
};
