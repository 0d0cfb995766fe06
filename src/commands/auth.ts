/** `exercises auth login|status|logout`: store the API key, show which is in use and whether the service accepts it, remove it. */
import { type Context, type IOStreams, outputFormat } from '../context.js';
import { KEY_INPUT_MAX_BYTES } from '../defaults.js';
import { CliError, UsageError } from '../errors.js';
import type { SettingSource } from '../config/settings.js';
import type { RegisterCommand } from './shared/register.js';
import { addExamples, helpWhenBare } from './shared/help.js';
import { loadRead } from '../vendor/load.js';
import { maskSecret } from '../util/text.js';
import { configPath, readStoredConfig } from '../config/parsers.js';
import { openConfigWriter } from '../config/store.js';
import { requireKey } from '../connection.js';
import { refuseInSandbox } from './config.js';
import { quotaLine } from './quota.js';
import { fitLines } from '../output/wrap.js';

export type AuthOptions =
  | { action: 'login'; /** read the key from stdin, not a prompt */ withKey: boolean; verify: boolean }
  | { action: 'status'; verify: boolean }
  | { action: 'logout' };

/** `login` without --with-key asks for the key, which needs a terminal. */
export function loginOptions(flags: { withKey?: boolean; verify?: boolean }, io: Pick<IOStreams, 'stdinIsTTY'>): AuthOptions {
  const withKey = flags.withKey === true;
  if (!withKey && !io.stdinIsTTY) {
    throw new UsageError('Standard input is not a terminal, so the key cannot be asked for.', {
      hint: 'Pipe it in with --with-key, e.g. `printenv MY_KEY | exercises auth login --with-key`.',
    });
  }
  return { action: 'login', withKey, verify: flags.verify === true };
}

/** A key must be one printable token: it travels in an HTTP header. */
export function checkKey(raw: string): string {
  const key = raw.trim();
  if (key === '') throw new UsageError('The API key is empty.');
  if (key.length > 512 || /[\s\u0000-\u001f\u007f-\u00ff]/.test(key) || /[^\x21-\x7e]/.test(key)) {
    throw new UsageError('That does not look like an API key: it must be one line of printable characters without spaces.');
  }
  return key;
}

async function keyFromStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.io.stdin as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > KEY_INPUT_MAX_BYTES) throw new UsageError('Standard input is too long to be an API key.');
    chunks.push(buf);
  }
  const lines = Buffer.concat(chunks).toString('utf8').split(/\r?\n/);
  return checkKey(lines.find((l) => l.trim() !== '') ?? '');
}

/** Where a key comes from, as the service's documentation says it: said before the prompt, for a person who has none yet. */
export function keySourceLine(baseUrl: string): string {
  return `Get a key from the web console of the service at ${new URL(baseUrl).host}, in its settings area (see "Your API key" in the README).`;
}

async function keyFromPrompt(ctx: Context): Promise<string> {
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${fitLines(keySourceLine((await ctx.connection()).baseUrl), ctx.io.stderrIsTTY, ctx.io.columns)}\n`);
  const { read } = await loadRead();
  const answer = await read({ prompt: 'API key (input hidden): ', silent: true, replace: '*', input: ctx.io.stdin, output: ctx.io.stderr });
  return checkKey(String(answer));
}

/** One cheap request to learn whether the service accepts a key. */
async function verifyKey(ctx: Context, target: Parameters<Context['apiFor']>[0]): Promise<void> {
  await (await ctx.apiFor(target)).exerciseIds({ limit: 1 });
}

async function login(opts: { withKey: boolean; verify: boolean }, ctx: Context): Promise<void> {
  refuseInSandbox(ctx, '`auth login`');
  const key = opts.withKey ? await keyFromStdin(ctx) : await keyFromPrompt(ctx);
  if (opts.verify) await verifyKey(ctx, { ...(await ctx.connection()), apiKey: key });
  const writer = await openConfigWriter(ctx.env);
  writer.set('api-key', key);
  if (!ctx.globals.quiet) {
    ctx.io.stderr.write(`Stored the API key ${maskSecret(key)} in ${configPath(ctx.env)}${opts.verify ? ' (the service accepted it)' : ''}.\n`);
    if (ctx.env.EXERCISES_API_KEY) ctx.io.stderr.write('Note: EXERCISES_API_KEY is set and takes precedence over the stored key.\n');
  }
}

/** Where a setting came from, for people. */
function sourceLabel(source: SettingSource, origin: string | undefined): string {
  const labels: Partial<Record<SettingSource, string>> = {
    flag: `the ${origin ?? 'command-line'} flag`,
    env: origin ?? 'the environment',
    config: 'the stored config',
    sandbox: 'the --sandbox server',
  };
  return labels[source] ?? 'the default';
}

async function status(opts: { verify: boolean }, ctx: Context): Promise<void> {
  const conn = requireKey(await ctx.connection()); // no key → AuthError naming the three ways
  let accepted: boolean | undefined;
  let problem: CliError | undefined;
  if (opts.verify) {
    try {
      await verifyKey(ctx, conn);
      accepted = true;
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      problem = err;
      accepted = err.exitCode === 3 ? false : undefined;
    }
  }
  const report = {
    key: maskSecret(conn.apiKey),
    source: conn.keySource,
    baseUrl: conn.baseUrl,
    baseUrlSource: conn.baseUrlSource,
    ...(accepted !== undefined ? { accepted } : {}),
    ...(problem ? { problem: problem.message } : {}),
  };
  if (outputFormat(ctx) === 'json' || outputFormat(ctx) === 'jsonl') ctx.io.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    const asked = accepted === undefined ? `could not be asked (${problem?.message ?? 'unknown'})` : `${accepted ? 'accepts' : 'rejects'} the key`;
    ctx.io.stdout.write(
      [
        `Key:      ${report.key} (from ${sourceLabel(conn.keySource, conn.keyOrigin)})`,
        `Base URL: ${conn.baseUrl} (${conn.baseUrlSource === 'default' ? 'default' : `from ${sourceLabel(conn.baseUrlSource, conn.baseUrlOrigin)}`})`,
        `Service:  ${opts.verify ? asked : 'not checked (--no-verify)'}`,
        `Requests: ${await quotaLine(ctx)}`,
      ].join('\n') + '\n',
    );
  }
  if (problem) throw problem;
}

async function logout(ctx: Context): Promise<void> {
  refuseInSandbox(ctx, '`auth logout`');
  const had = typeof readStoredConfig(ctx.env)['api-key'] === 'string';
  if (had) (await openConfigWriter(ctx.env)).delete('api-key');
  if (!ctx.globals.quiet) {
    ctx.io.stderr.write(had ? 'Removed the stored API key.\n' : 'No API key was stored.\n');
    if (ctx.env.EXERCISES_API_KEY) ctx.io.stderr.write('Note: EXERCISES_API_KEY is still set in the environment.\n');
  }
}

export async function run(options: AuthOptions, ctx: Context): Promise<void> {
  if (options.action === 'login') return login(options, ctx);
  return options.action === 'status' ? status(options, ctx) : logout(ctx);
}

export const register: RegisterCommand<AuthOptions> = (program, context, runF = run) => {
  const auth = program.command('auth').description('store, check or remove the API key');

  const loginCmd = auth
    .command('login')
    .description(
      "store the API key (asked for with hidden input, or read from stdin with --with-key); keys come from the provider's web console, in its settings area",
    )
    .option('--with-key', 'read the key from standard input')
    .option('--verify', 'check the key with the service (one request) before storing it');
  addExamples(
    loginCmd,
    ['exercises auth login', 'exercises auth login --verify'],
    ['printenv EXERCISES_KEY | exercises auth login --with-key', 'pass show exercises/api-key | exercises auth login --with-key'],
  );
  loginCmd.action(async (flags: { withKey?: boolean; verify?: boolean }) => {
    const ctx = context();
    await runF(loginOptions(flags, ctx.io), ctx);
  });

  const statusCmd = auth
    .command('status')
    .description('show which key is in use (masked) and whether the service accepts it (one request)')
    .option('--no-verify', 'do not ask the service');
  addExamples(
    statusCmd,
    ['exercises auth status', 'exercises --sandbox auth status'],
    ['exercises auth status --json | jq .accepted', 'exercises auth status --no-verify --json'],
  );
  statusCmd.action((flags: { verify?: boolean }) => runF({ action: 'status', verify: flags.verify !== false }, context()));

  const logoutCmd = auth.command('logout').description('remove the stored API key');
  addExamples(logoutCmd, ['exercises auth logout'], ['exercises auth logout --quiet']);
  logoutCmd.action(() => runF({ action: 'logout' }, context()));

  helpWhenBare(auth);
  addExamples(auth, ['exercises auth login', 'exercises auth status', 'exercises auth logout'], ['printenv EXERCISES_KEY | exercises auth login --with-key']);
};
