/**
 * Every command, in the order `--help` lists them. A command file, as gh's commands do, has
 * a typed options object, a `register` that declares its flags and, in the action, builds and
 * validates the options (usage errors come from there), and a separate `run(options, ctx)`
 * that does the work. `register` takes a replacement for run — the seam a test uses to check
 * option parsing without doing the work. Heavy packages are loaded (src/vendor/) only when a
 * run() reaches them.
 */
import { register as auth } from './auth.js';
import { register as cache } from './cache.js';
import { register as completion } from './completion.js';
import { register as config } from './config.js';
import { register as download } from './download.js';
import { register as ids } from './ids.js';
import { register as mirror } from './mirror.js';
import { register as query } from './query.js';
import { register as quota } from './quota.js';
import { register as serve } from './serve.js';
import { register as show } from './show.js';
import { registerImage, registerVideo } from './shared/media-single.js';
import type { RegisterCommand, Run } from './shared/register.js';

/** Each top-level command: its name as typed (the key of its runner in a test), and the function that declares it. */
export const COMMANDS = [
  { name: 'query', register: query },
  { name: 'ids', register: ids },
  { name: 'show', register: show },
  // `image` and `video` are one command file, shared/media-single.ts, for two kinds of media.
  { name: 'image', register: registerImage },
  { name: 'video', register: registerVideo },
  { name: 'download', register: download },
  { name: 'auth', register: auth },
  { name: 'config', register: config },
  { name: 'cache', register: cache },
  { name: 'quota', register: quota },
  { name: 'serve', register: serve },
  { name: 'completion', register: completion },
  { name: 'mirror', register: mirror },
] as const;

type CommandName = (typeof COMMANDS)[number]['name'];

/** Each command's options type, by command name: what its register's run takes. */
export type CommandOptions = { [E in (typeof COMMANDS)[number] as E['name']]: E['register'] extends RegisterCommand<infer O> ? O : never };

/** Replacements for commands' run, by command name. */
export type Runners = { [K in CommandName]?: Run<CommandOptions[K]> };
