/**
 * Start-up only (docs/development.md "How start-up works"). proper-lockfile takes its fs from
 * graceful-fs, which patches and wraps all of fs at require time (~2 ms) to queue calls past
 * EMFILE: the lock makes a handful of calls (mkdir, stat, utimes, rmdir), one lock at a time,
 * and never meets EMFILE. node:fs has the same functions, so the vendor file is given node:fs.
 */
export const gracefulFsAsFs = {
  name: 'graceful-fs-as-fs',
  setup(b) {
    b.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'node:fs', external: true }));
  },
};
