/**
 * Every command, in the order `--help` lists them. A command file exports a `register`
 * function that declares its flags and wires its action to run(options, context);
 * heavy modules are imported inside run(), so listing commands here costs no start-up time.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { register as auth } from './auth.js';
import { register as config } from './config.js';
import { register as download } from './download.js';
import { register as ids } from './ids.js';
import { register as image } from './image.js';
import { register as query } from './query.js';
import { register as serve } from './serve.js';
import { register as show } from './show.js';
import { register as video } from './video.js';

export type RegisterCommand = (program: Command, context: () => Context) => void;

export const COMMANDS: RegisterCommand[] = [query, ids, show, image, video, download, auth, config, serve];
