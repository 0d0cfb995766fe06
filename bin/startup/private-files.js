// Start-up only (docs/development.md "How start-up works"): the owner-only files the launcher
// keeps its code caches in. Code read from a code cache runs as the user, so a file is used
// only when no one else could have written it: its directory and the file are the user's own,
// writable by no one else, and neither is a symbolic link (one pointing elsewhere would also
// send our writes there). The directory is made 0700 and each file 0600 whatever the umask.
// On Windows, which has no such owners and modes, the checks are skipped.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/**
 * Where env-paths('exercises', { suffix: '' }).cache points, by the rule of src/config/settings.ts userDirs:
 * HOME (USERPROFILE on Windows) when set, which also spares loading node:os.
 */
function userCacheDir() {
  const named = process.platform === 'win32' ? process.env.USERPROFILE : process.env.HOME;
  const home = named || require('node:os').homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'exercises');
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'exercises', 'Cache');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'exercises');
}

const OWNER_ONLY = typeof process.getuid === 'function';

/** Whether a file or directory is the user's own and writable by no one else. */
function ownedPrivately(stat) {
  return !OWNER_ONLY || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
}

/** Makes the private directory `dir`, or checks the one there: true when it is safe to write into. */
function privateDir(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory() || (OWNER_ONLY && stat.uid !== process.getuid())) return false;
  // The user's own directory, made by an older version or under a loose umask: tightened.
  // Its files are each checked as they are read, so whatever another user left there is ignored.
  if (OWNER_ONLY && (stat.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
  return true;
}

/** The file `name` in `dir` when both are private (see above), else undefined. */
function readPrivate(dir, name) {
  const dirStat = fs.lstatSync(dir);
  if (!dirStat.isDirectory() || !ownedPrivately(dirStat)) return undefined;
  const fd = fs.openSync(path.join(dir, name), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || !ownedPrivately(stat)) return undefined;
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `name` in `dir` as a new 0600 file renamed into place, so a concurrent run never reads half a file. */
function writePrivate(dir, name, data) {
  const partial = path.join(dir, `${name}.${process.pid}`);
  const fd = fs.openSync(partial, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    if (OWNER_ONLY) fs.fchmodSync(fd, 0o600); // the umask may have taken the owner's bits too
    fs.writeFileSync(fd, data);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(partial, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(partial, path.join(dir, name));
}

module.exports = { userCacheDir, privateDir, readPrivate, writePrivate };
