/**
 * Every command, in the order `--help` lists them. A command file exports a `register`
 * function that declares its flags and wires its action to run(options, context);
 * heavy modules are imported inside run(), so listing commands here costs no start-up time.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { register as auth } from './auth.js';
import { register as completion } from './completion.js';
import { register as config } from './config.js';
import { register as download } from './download.js';
import { register as ids } from './ids.js';
import { register as image } from './image.js';
import { register as query } from './query.js';
import { register as serve } from './serve.js';
import { register as show } from './show.js';
import { register as video } from './video.js';

export type RegisterCommand = (program: Command, context: () => Context) => void;

/**
 * A top-level command: its name as typed, and the function that declares it. The name lets
 * the CLI declare only the command a command line runs (see buildProgram in cli.ts).
 */
export interface CommandEntry {
  name: string;
  register: RegisterCommand;
}

export const COMMANDS: CommandEntry[] = [
  { name: 'query', register: query },
  { name: 'ids', register: ids },
  { name: 'show', register: show },
  { name: 'image', register: image },
  { name: 'video', register: video },
  { name: 'download', register: download },
  { name: 'auth', register: auth },
  { name: 'config', register: config },
  { name: 'serve', register: serve },
  { name: 'completion', register: completion },
];
