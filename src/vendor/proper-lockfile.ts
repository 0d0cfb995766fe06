/**
 * proper-lockfile, the lock a media download takes on its target file so that two runs never
 * write one file (src/media/download/file-lock.ts). Only media commands (`image`, `video`,
 * `download`, `mirror`) take it; the request ledger has a lock of its own
 * (src/cache/ledger-lock.ts). ~17 KB bundled (graceful-fs replaced by node:fs in the bundle,
 * scripts/bundle.mjs).
 */
export function loadProperLockfile(): Promise<typeof import('proper-lockfile')> {
  return import('proper-lockfile');
}
