/**
 * The shape of a command file (see commands/index.ts): `register` declares the command on the
 * program and, in its action, calls `run` — or the replacement a test gives. Here, not in
 * index.ts, so a command file and the list of commands do not import each other.
 */
import type { Command } from 'commander';
import type { Context } from '../../context.js';

/** What a command does with its validated options. */
export type Run<O> = (options: O, ctx: Context) => Promise<void>;

/** Declares a command on the program; its action calls `runF` (the command's own run unless replaced). */
export type RegisterCommand<O> = (program: Command, context: () => Context, runF?: Run<O>) => void;
