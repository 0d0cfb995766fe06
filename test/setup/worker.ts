/**
 * In every test worker: os.tmpdir() is the run's temp root (test/setup/global.ts), so code
 * under test that makes temp files (the pager, atomic writes) makes them there too; so does
 * tmux, which reads TMUX_TMPDIR instead (test/helpers/tmux-sockets.ts).
 */
import { afterAll, inject } from 'vitest';
import { checkServersOutsideTests } from '../helpers/tmux.js';
import { tmuxDir } from '../helpers/tmux-sockets.js';

process.env.TMPDIR = inject('tempRoot');
process.env.TMUX_TMPDIR = tmuxDir(inject('tempRoot'));

// Setup files run for every test file, shared modules or not: a hook here is each file's own.
afterAll(checkServersOutsideTests);
