/**
 * Turns any thrown value into one plain sentence (and a hint) on stderr, plus a JSON
 * line when the output format is json. Returns the exit code. Stack traces only with --verbose, and only for exit 1.
 * Messages may quote server text (ids, names, error bodies), so both go through the one
 * sanitiser (util/text.ts) and the JSON line through jsonText: no escape sequence, C1 control
 * or bidi override reaches the terminal from here.
 */
import { type Context, outputFormat } from '../context.js';
import { CliError, ExitCode, type ExitCodeValue, PromptCancelledError } from '../errors.js';
import { cleanText } from '../util/text.js';
import { jsonText } from './json.js';

type ErrorContext = Pick<Context, 'io' | 'env' | 'globals'>;

export function reportError(err: unknown, ctx: ErrorContext): ExitCodeValue {
  if (err instanceof PromptCancelledError) return err.exitCode; // the person left a prompt: nothing to say
  const known = err instanceof CliError ? err : undefined;
  const exitCode = known?.exitCode ?? ExitCode.UNEXPECTED;
  const message = cleanText(known?.message ?? `Unexpected error: ${err instanceof Error ? err.message : String(err)}`);
  const rawHint = known?.hint ?? (known ? undefined : 'Run again with --verbose for details, and please report it.');
  const hint = rawHint === undefined ? undefined : cleanText(rawHint);

  const lines = [`Error: ${message}`];
  if (hint) lines.push(hint);
  // A stack trace is for a bug (exit 1); a known failure's sentence already says all there is.
  if (ctx.globals.verbose && exitCode === ExitCode.UNEXPECTED && err instanceof Error && err.stack) lines.push(cleanText(err.stack));
  ctx.io.stderr.write(`${lines.join('\n')}\n`);

  let format: string | undefined;
  try {
    format = outputFormat(ctx);
  } catch {
    format = undefined;
  }
  if (format === 'json') {
    const body = {
      error: {
        code: known?.code ?? 'unexpected',
        exitCode,
        message,
        ...(hint ? { hint } : {}),
        ...(known?.details ? { details: known.details } : {}),
      },
    };
    ctx.io.stderr.write(`${jsonText(body)}\n`);
  }
  return exitCode;
}

/**
 * commander reports its own usage errors (unknown flag, bad value) in plain text; with
 * --format json, add the same JSON line as every other error.
 */
export function reportUsageErrorJson(message: string, ctx: ErrorContext): void {
  let format: string | undefined;
  try {
    format = outputFormat(ctx);
  } catch {
    return;
  }
  if (format !== 'json') return;
  const text = cleanText(message.replace(/^error:\s*/i, '').trim());
  ctx.io.stderr.write(`${jsonText({ error: { code: 'usage', exitCode: ExitCode.USAGE, message: text } })}\n`);
}
