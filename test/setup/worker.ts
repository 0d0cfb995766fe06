/**
 * In every test worker: os.tmpdir() is the run's temp root (test/setup/global.ts), so code
 * under test that makes temp files (the pager, atomic writes) makes them there too; so does
 * tmux, which reads TMUX_TMPDIR instead (test/helpers/tmux-sockets.ts). HOME and the XDG
 * directories are the run's own as well (test/setup/home-check.ts).
 */
import { afterAll, inject } from 'vitest';
import { checkServersOutsideTests } from '../helpers/tmux.js';
import { tmuxDir } from '../helpers/tmux-sockets.js';
import { homeEnv } from './home-check.js';

process.env.TMPDIR = inject('tempRoot');
process.env.TMUX_TMPDIR = tmuxDir(inject('tempRoot'));
// HOME and the XDG directories too: a child started with the inherited environment never reaches the user's own.
Object.assign(process.env, homeEnv(inject('tempRoot')));

// Setup files run for every test file, shared modules or not: a hook here is each file's own.
afterAll(checkServersOutsideTests);
