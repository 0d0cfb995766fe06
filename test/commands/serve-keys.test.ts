/**
 * `exercises serve keys add|list|remove`: a strong key printed once on stdout and never again,
 * the keys file created or kept owner-only with its comments, and the mistakes refused: a label
 * given twice, a label that would not read back, an unknown label, a file others may read.
 */
import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { parseKeysFile } from '../../src/proxy/secret-files.js';
import { runCli } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDirsPerTest } from '../helpers/temp.js';

const tempDir = tempDirsPerTest('exercises-serve-keys-');
let file: string;
beforeEach(() => {
  file = join(tempDir(), 'team-keys');
});

const keys = (...args: string[]) => runInProcess(['serve', 'keys', ...args]);

describe.skipIf(process.platform === 'win32')('serve keys', () => {
  test('at a terminal of 80 columns, what add says is wrapped between words', async () => {
    const added = await runInProcess(['serve', 'keys', 'add', 'alice', '--plan', 'premium', '--keys-file', file], { tty: true, columns: 80 });
    expect(added.code, added.stderr).toBe(0);
    const lines = added.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(added.stderr.replace(/\s+/g, ' ')).toContain('Hand the key over now: it is not shown again (list masks it).');
  });

  test("six adds at once from six processes all land: each edit holds the file's lock, none is lost", async () => {
    const labels = ['ann', 'ben', 'cai', 'dee', 'eve', 'fay'];
    const runs = await Promise.all(labels.map((label) => runCli(['serve', 'keys', 'add', label, '--plan', 'free', '--keys-file', file])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const kept = parseKeysFile(readFileSync(file, 'utf8'), file);
    expect(
      Object.values(kept)
        .map((c) => c.label)
        .sort(),
    ).toEqual(labels);
    for (const r of runs) expect(Object.keys(kept)).toContain(r.stdout.trim());
    expect(readdirSync(dirname(file))).toEqual(['team-keys']); // no lock or temporary file left
  });

  test('add makes a strong key, prints it once, and writes the file mode 600; list masks it; remove takes it out', async () => {
    const added = await keys('add', 'alice', '--plan', 'premium', '--keys-file', file);
    expect(added.code).toBe(0);
    const key = added.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{48}$/);
    expect(added.stderr).toMatch(/^Added alice \(premium\) to .*team-keys\. Hand the key over now/);
    expect(added.stderr).not.toContain(key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseKeysFile(readFileSync(file, 'utf8'), file)).toEqual({ [key]: { plan: 'premium', label: 'alice' } });

    // Keys on the option of `serve` and before the label alike.
    const bob = await keys('--keys-file', file, 'add', '--plan', 'free', 'bob');
    expect(bob.code).toBe(0);
    expect(bob.stdout.trim()).not.toBe(key);

    const list = await keys('list', '--keys-file', file);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^LABEL +PLAN +KEY\nalice +premium +\S+\nbob +free +\S+\n$/);
    expect(list.stdout).toContain(`${key.slice(0, 2)}…${key.slice(-2)}`);
    expect(list.stdout + list.stderr).not.toContain(key.slice(0, 8));
    const json = JSON.parse((await keys('list', '--keys-file', file, '--json')).stdout) as Array<Record<string, string>>;
    expect(json.map((k) => [k.label, k.plan])).toEqual([
      ['alice', 'premium'],
      ['bob', 'free'],
    ]);

    const removed = await keys('remove', 'alice', '--keys-file', file);
    expect(removed.code).toBe(0);
    expect(Object.values(parseKeysFile(readFileSync(file, 'utf8'), file))).toEqual([{ plan: 'free', label: 'bob' }]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('comments and hand-written lines stay; a file without a final newline gets one before the new line', async () => {
    writeFileSync(file, '# the team\nhand-written-0123:free:carol', { mode: 0o600 });
    expect((await keys('add', 'dave', '--plan', 'free', '--keys-file', file)).code).toBe(0);
    expect((await keys('remove', 'carol', '--keys-file', file)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^# the team\n[0-9a-f]{48}:free:dave\n$/);
  });

  test('refused: a label already there (2), an unknown label (4), a label with a colon (2), a file others may read (2), no --keys-file or --plan (2)', async () => {
    expect((await keys('add', 'alice', '--plan', 'premium', '--keys-file', file)).code).toBe(0);
    const twice = await keys('add', 'alice', '--plan', 'free', '--keys-file', file);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/already has a key labelled alice/);
    expect(twice.stdout).toBe('');
    const unknown = await keys('remove', 'zoe', '--keys-file', file);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/has no key labelled zoe/);
    expect((await keys('add', 'a:b', '--plan', 'free', '--keys-file', file)).code).toBe(2);
    expect((await keys('add', 'x', '--plan', 'gold', '--keys-file', file)).code).toBe(2);
    expect((await keys('add', 'x', '--plan', 'free')).stderr).toMatch(/needs --keys-file <path>/);
    expect((await keys('add', 'x', '--keys-file', file)).code).toBe(2);
    chmodSync(file, 0o644);
    const open = await keys('list', '--keys-file', file);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/may be read by others \(mode 644\)/);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(2);
  });
});
