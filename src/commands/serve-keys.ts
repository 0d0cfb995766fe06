/**
 * `exercises serve keys add|list|remove`: the proxy's keys file kept by a command, as htpasswd
 * keeps its file: `add` makes a strong key and prints it once, `list` shows labels, plans and
 * masked keys, `remove` takes a label's key out. A running proxy sees the file change and reloads it.
 */
import { type Command, Option } from 'commander';
import { type Context, outputFormat } from '../context.js';
import { UsageError } from '../errors.js';
import { addKey, listKeys, removeKey } from '../proxy/keys-file.js';
import { PLANS } from '../proxy/client-keys.js';
import type { Plan } from '../server/records.js';
import { alignedRows } from '../output/aligned.js';
import { writeNotice } from '../output/notice.js';
import { maskSecret, plural } from '../util/text.js';
import { addExamples, helpWhenBare } from './shared/help.js';
import type { Run } from './shared/register.js';

export type ServeKeysOptions =
  { action: 'add'; keysFile: string; label: string; plan: Plan } | { action: 'list'; keysFile: string } | { action: 'remove'; keysFile: string; label: string };

export async function run(options: ServeKeysOptions, ctx: Context): Promise<void> {
  const { io } = ctx;
  const note = (text: string): void => {
    if (!ctx.globals.quiet) writeNotice(io, text);
  };
  if (options.action === 'add') {
    const key = await addKey(options.keysFile, options.label, options.plan);
    io.stdout.write(`${key}\n`);
    note(`Added ${options.label} (${options.plan}) to ${options.keysFile}. Hand the key over now: it is not shown again (list masks it).`);
  } else if (options.action === 'remove') {
    const removed = await removeKey(options.keysFile, options.label);
    note(`Removed ${plural(removed, 'key')} labelled ${options.label} from ${options.keysFile}; a running proxy rereads the file and refuses it (401).`);
  } else {
    const rows = listKeys(options.keysFile).map(([key, client]) => ({ label: client.label ?? null, plan: client.plan, key: maskSecret(key) }));
    const format = outputFormat(ctx);
    if (format === 'json' || format === 'jsonl') io.stdout.write(`${JSON.stringify(rows)}\n`);
    else if (rows.length > 0) io.stdout.write(alignedRows([['LABEL', 'PLAN', 'KEY'], ...rows.map((r) => [r.label ?? '-', r.plan, r.key])]));
    else note(`No keys in ${options.keysFile}.`);
  }
}

/** Declares `keys` and its commands under `serve`; their actions call `runF`, serve's (which hands them to run above). */
export function registerKeys(serve: Command, context: () => Context, runF: Run<ServeKeysOptions>): void {
  const keys = serve.command('keys').description("make, list and remove the proxy's client keys in a keys file (as htpasswd does)");
  const fileOption = () => new Option('--keys-file <path>', 'the keys file (created mode 600 when missing; refused when others may read it)');
  // `serve` has a --keys-file of its own, which takes the value wherever it stands: read it from there too.
  const keysFile = (cmd: Command): string => {
    const path = cmd.optsWithGlobals<{ keysFile?: string }>().keysFile;
    if (path === undefined) throw new UsageError(`exercises serve keys ${cmd.name()} needs --keys-file <path>.`);
    return path;
  };

  const add = keys
    .command('add')
    .description('make a strong key for <label>, add it to the keys file and print it once')
    .argument('<label>', 'who holds the key, as the log and /-/status name them')
    .addOption(new Option('--plan <plan>', 'the plan of the key').choices(PLANS).makeOptionMandatory())
    .addOption(fileOption());
  addExamples(
    add,
    ['exercises serve keys add alice --plan premium --keys-file team-keys'],
    ['KEY=$(exercises serve keys add ci --plan free --keys-file team-keys)'],
  );
  add.action((label: string, flags: { plan: Plan }) => runF({ action: 'add', label, plan: flags.plan, keysFile: keysFile(add) }, context()));

  const list = keys.command('list').description('the labels, plans and masked keys of the keys file').addOption(fileOption());
  addExamples(list, ['exercises serve keys list --keys-file team-keys'], ['exercises serve keys list --keys-file team-keys --json']);
  list.action(() => runF({ action: 'list', keysFile: keysFile(list) }, context()));

  const remove = keys
    .command('remove')
    .description('remove the key of <label> from the keys file')
    .argument('<label>', 'the label of the key')
    .addOption(fileOption());
  addExamples(remove, ['exercises serve keys remove alice --keys-file team-keys'], []);
  remove.action((label: string) => runF({ action: 'remove', label, keysFile: keysFile(remove) }, context()));

  helpWhenBare(keys);
  addExamples(keys, ['exercises serve keys add alice --plan premium --keys-file team-keys', 'exercises serve keys list --keys-file team-keys'], []);
}
