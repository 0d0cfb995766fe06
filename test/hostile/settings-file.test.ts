/**
 * The settings file read at start-up by the one rule of util/safe-open.ts: a FIFO planted as
 * config.json (which a plain read waits on for ever, before any command runs) and an
 * oversized file are refused at once with a usage error naming the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { configPath, readStoredConfig } from '../../src/config/parsers.js';
import { tempDir } from '../helpers/temp.js';

function envWithConfigDir(): { env: { HOME: string; XDG_CONFIG_HOME: string }; path: string } {
  const home = tempDir('exercises-settings-');
  const env = { HOME: home, XDG_CONFIG_HOME: home };
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true });
  return { env, path };
}

describe('the settings file', () => {
  test('a file over the bound is refused, named, not parsed', () => {
    const { env, path } = envWithConfigDir();
    writeFileSync(path, `${' '.repeat(2 * 1024 * 1024)}{}`, { mode: 0o600 });
    expect(() => readStoredConfig(env)).toThrow(UsageError);
    expect(() => readStoredConfig(env)).toThrow(/config\.json holds \d+ bytes, over the/);
  });

  test.skipIf(process.platform === 'win32')('a FIFO is refused at once, never waited on', () => {
    const { env, path } = envWithConfigDir();
    execFileSync('mkfifo', ['-m', '600', path]);
    const started = Date.now();
    expect(() => readStoredConfig(env)).toThrow(/config\.json is a FIFO, not a regular file/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('a plain file still reads as before', () => {
    const { env, path } = envWithConfigDir();
    writeFileSync(path, '{"budget":5}', { mode: 0o600 });
    expect(readStoredConfig(env)).toEqual({ budget: 5 });
  });
});
