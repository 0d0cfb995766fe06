/**
 * The proxy's secret files (keys file, upstream key file) read by the one rule of
 * util/safe-open.ts: a byte order mark is not part of the first key; a FIFO, a device or an
 * oversized file is refused at once with a usage error naming it, never read.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { SECRET_FILE_MAX_BYTES, parseKeyFile, parseKeysFile, readOwnerOnlyFile } from '../../src/proxy/secret-files.js';
import { tempDir } from '../helpers/temp.js';

function ownerOnly(name: string, text: string): string {
  const path = join(tempDir('exercises-secrets-'), name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

describe('keys files', () => {
  test('a UTF-8 BOM at the start is ignored: the first key is the key as written', () => {
    const path = ownerOnly('keys', '\uFEFFfirst-key-0123:premium\nsecond-key-0123:free\n');
    const keys = parseKeysFile(readOwnerOnlyFile(path, '--keys-file'), path);
    expect(Object.keys(keys)).toEqual(['first-key-0123', 'second-key-0123']);
    expect(keys['first-key-0123']).toEqual({ plan: 'premium' });
  });

  test('a BOM before the upstream key is not part of it', () => {
    const path = ownerOnly('upstream', '\uFEFFupstream-key-0123\n');
    expect(parseKeyFile(readOwnerOnlyFile(path, '--upstream-key-file'), path)).toBe('upstream-key-0123');
  });

  test('a file over the bound is refused unread, named, with a usage error', () => {
    const path = ownerOnly('huge', 'k:premium\n');
    truncateSync(path, SECRET_FILE_MAX_BYTES + 1);
    expect(() => readOwnerOnlyFile(path, '--keys-file')).toThrow(UsageError);
    expect(() => readOwnerOnlyFile(path, '--keys-file')).toThrow(/--keys-file .*huge holds \d+ bytes, over the/);
  });

  test.skipIf(process.platform === 'win32')('a FIFO is refused at once, never waited on', () => {
    const path = join(tempDir('exercises-secrets-'), 'keys');
    execFileSync('mkfifo', ['-m', '600', path]);
    const started = Date.now();
    expect(() => readOwnerOnlyFile(path, '--keys-file')).toThrow(/is a FIFO, not a regular file/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test.skipIf(process.platform === 'win32')('the mode checked is the open file’s: readable by others is still refused', () => {
    const path = ownerOnly('keys', 'k:premium\n');
    chmodSync(path, 0o644);
    expect(() => readOwnerOnlyFile(path, '--keys-file')).toThrow(/may be read by others \(mode 644\)/);
  });
});
