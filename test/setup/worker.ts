/**
 * In every test worker: os.tmpdir() is the run's temp root (test/setup/global.ts), so code
 * under test that makes temp files (the pager, atomic writes) makes them there too.
 */
import { inject } from 'vitest';

process.env.TMPDIR = inject('tempRoot');
