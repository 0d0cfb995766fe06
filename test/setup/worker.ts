/**
 * In every test worker: os.tmpdir() is the run's temp root (test/setup/global.ts), so code
 * under test that makes temp files (the pager, atomic writes) makes them there too; so does
 * tmux, which reads TMUX_TMPDIR instead (test/helpers/tmux-sockets.ts).
 */
import { inject } from 'vitest';
import { tmuxDir } from '../helpers/tmux-sockets.js';

process.env.TMPDIR = inject('tempRoot');
process.env.TMUX_TMPDIR = tmuxDir(inject('tempRoot'));
