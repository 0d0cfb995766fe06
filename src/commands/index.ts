/**
 * Every command, in the order `--help` lists them. As in gh, a command file has a typed options
 * object, a `register` whose action builds and checks them, and a separate `run(options, ctx)`;
 * `register` takes a replacement for run, the seam a test uses to check option parsing alone.
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

/** Each top-level command's name and register. */
export const COMMANDS = [
  { name: 'query', register: query },
  { name: 'ids', register: ids },
  { name: 'show', register: show },
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

/** Each command's options type, by name. */
export type CommandOptions = { [E in (typeof COMMANDS)[number] as E['name']]: E['register'] extends RegisterCommand<infer O> ? O : never };

export type Runners = { [K in CommandName]?: Run<CommandOptions[K]> };
