/**
 * Every command, in the order `--help` lists them. A command file, as gh's commands do, has
 * a typed options object, a `register` that declares its flags and, in the action, builds and
 * validates the options (usage errors come from there), and a separate `run(options, ctx)`
 * that does the work. `register` takes a replacement for run — the seam a test uses to check
 * option parsing without doing the work. Heavy packages are loaded (src/vendor/) only when a
 * run() reaches them, so listing every command here costs start-up only its modules' top-level
 * declarations.
 */
import { type AuthOptions, register as auth } from './auth.js';
import { type CacheOptions, register as cache } from './cache.js';
import { type CompletionOptions, register as completion } from './completion.js';
import { type ConfigOptions, register as config } from './config.js';
import { type DownloadOptions, register as download } from './download.js';
import { type IdsOptions, register as ids } from './ids.js';
import { type MirrorOptions, register as mirror } from './mirror.js';
import { type QueryOptions, register as query } from './query.js';
import { type QuotaOptions, register as quota } from './quota.js';
import { type ServeOptions, register as serve } from './serve.js';
import { type ShowOptions, register as show } from './show.js';
import { type SingleMediaOptions, registerSingleMedia } from './shared/media-single.js';
import type { RegisterCommand, Run } from './shared/register.js';

/** Each command's options type, by command name. */
export interface CommandOptions {
  query: QueryOptions;
  ids: IdsOptions;
  show: ShowOptions;
  image: SingleMediaOptions;
  video: SingleMediaOptions;
  download: DownloadOptions;
  auth: AuthOptions;
  config: ConfigOptions;
  cache: CacheOptions;
  quota: QuotaOptions;
  serve: ServeOptions;
  completion: CompletionOptions;
  mirror: MirrorOptions;
}

export type CommandName = keyof CommandOptions;

/** Replacements for commands' run, by command name. */
export type Runners = { [K in CommandName]?: Run<CommandOptions[K]> };

/**
 * A top-level command: its name as typed, and the function that declares it. The name lets
 * the CLI declare only the command a command line runs (see buildProgram in cli.ts).
 */
export type CommandEntry = { [K in CommandName]: { name: K; register: RegisterCommand<CommandOptions[K]> } }[CommandName];

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'query', register: query },
  { name: 'ids', register: ids },
  { name: 'show', register: show },
  // `image` and `video` are one command file, shared/media-single.ts, for two kinds of media.
  { name: 'image', register: (program, context, runF) => registerSingleMedia(program, context, 'image', runF) },
  { name: 'video', register: (program, context, runF) => registerSingleMedia(program, context, 'video', runF) },
  { name: 'download', register: download },
  { name: 'auth', register: auth },
  { name: 'config', register: config },
  { name: 'cache', register: cache },
  { name: 'quota', register: quota },
  { name: 'serve', register: serve },
  { name: 'completion', register: completion },
  { name: 'mirror', register: mirror },
];
