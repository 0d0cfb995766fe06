/** The shape of a command file: `register` declares it and its action calls `run`, or a test's replacement. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';

export type Run<O> = (options: O, ctx: Context) => Promise<void>;

/** Declares a command on the program; its action calls `runF` (the command's own run unless replaced). */
export type RegisterCommand<O> = (program: Command, context: () => Context, runF?: Run<O>) => void;
