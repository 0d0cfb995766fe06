/** `exercises serve` as a user runs it: the built CLI as a child process. Build first (npm test does). */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/run-cli.js';

/** Starts `exercises serve ...`, waits for its first stdout line, runs `use(url)`, then sends `signal`. */
async function withServe(args: string[], use: (url: string, child: ChildProcess) => Promise<void>, signal: NodeJS.Signals = 'SIGTERM'): Promise<CliResult & { firstLine: string }> {
  let firstLine = '';
  let used: Promise<void> | undefined;
  const result = await runCli(['serve', ...args], {
    timeoutMs: 20_000,
    onSpawn(child) {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        if (firstLine) return;
        out += b.toString('utf8');
        const nl = out.indexOf('\n');
        if (nl === -1) return;
        firstLine = out.slice(0, nl);
        const url = firstLine.replace(/^Listening on /, '');
        used = use(url, child).finally(() => child.kill(signal));
      });
    },
  });
  await used;
  return { ...result, firstLine };
}

describe('exercises serve', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('serves the sample, logs each request without the key, and exits 0 on SIGTERM', async () => {
    let status = 0;
    let body: any;
    const result = await withServe(['--port', '0'], async (url) => {
      const res = await fetch(`${url}/exercise/query?name=plank&limit=2`, { headers: { 'X-API-Key': 'sandbox-premium' } });
      status = res.status;
      body = await res.json();
      await fetch(`${url}/exercise/Plank`, { headers: { 'X-API-Key': 'sandbox-free' } });
      await fetch(`${url}/exercise/Plank`);
    });
    expect(result.firstLine).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(status).toBe(200);
    expect(body.exercises[0].id).toBe('Copenhagen_Plank');
    const logLines = result.stderr.split('\n').filter((l) => /^GET /.test(l));
    expect(logLines).toEqual([
      expect.stringMatching(/^GET \/exercise\/query\?name=plank&limit=2 200 \d+(\.\d+)?ms$/),
      expect.stringMatching(/^GET \/exercise\/Plank 200 /),
      expect.stringMatching(/^GET \/exercise\/Plank 401 /),
    ]);
    // The sandbox keys are public and named once at start-up; request lines never carry a key.
    expect(logLines.join('\n')).not.toMatch(/sandbox-(premium|free)/);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('closes cleanly on SIGINT too', async () => {
    const result = await withServe(['--port', '0'], async () => {}, 'SIGINT');
    expect(result.code).toBe(0);
  });

  it('accepts only the given keys and serves the given directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exercises-serve-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify({ id: 'Only_One', name: 'Only One' })}\n`);
    const statuses: number[] = [];
    let total = -1;
    const result = await withServe([dir, '--port', '0', '--key', 'team:key:premium', '--key', 'guest:free'], async (url) => {
      for (const key of ['team:key', 'guest', 'sandbox-premium']) {
        const res = await fetch(`${url}/exercise/exerciseIds`, { headers: { 'X-API-Key': key } });
        statuses.push(res.status);
        if (res.status === 200) total = ((await res.json()) as any).pagination.total;
      }
    });
    expect(statuses).toEqual([200, 200, 401]);
    expect(total).toBe(1);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/team:key|guest /);
  });

  it('warns when listening beyond loopback', async () => {
    const result = await withServe(['--host', '0.0.0.0', '--port', '0'], async () => {});
    expect(result.firstLine).toMatch(/^Listening on http:\/\/0\.0\.0\.0:\d+$/);
    expect(result.stderr).toMatch(/Warning: .*not on loopback/);
    expect(result.code).toBe(0);
  });

  it('does not warn for a loopback name in any case', async () => {
    const result = await withServe(['--host', 'LocalHost', '--port', '0'], async () => {});
    expect(result.firstLine).toMatch(/^Listening on /);
    expect(result.stderr).not.toMatch(/Warning/);
    expect(result.code).toBe(0);
  });

  it.each([['nokey'], ['k:gold'], [':premium']])('rejects --key %s as a usage error', async (key) => {
    const result = await runCli(['serve', '--port', '0', '--key', key], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--key must be KEY:PLAN/);
    expect(result.stdout).toBe('');
  });

  it('rejects a bad catalogue line as a usage error naming the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exercises-serve-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify({ id: 'A', name: 'A' })}\n{"id":"B","name":"B","level":"GURU"}\n`);
    const result = await runCli(['serve', dir, '--port', '0'], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(dir, 'exercises.jsonl')}:2:`);
    expect(result.stderr).toMatch(/level/);
  });

  it('rejects a bad port', async () => {
    const result = await runCli(['serve', '--port', '70000'], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
  });

  it('ends its help with examples', async () => {
    const result = await runCli(['serve', '--help']);
    expect(result.code).toBe(0);
    // The shared shape of every command's help: terminal examples, then pipeline examples, last.
    expect(result.stdout).toMatch(/Examples:\n( {2}\$ exercises serve.*\n)+\nIn pipelines:\n( {2}\$ .*exercises .*\n)+\s*$/);
  });
});
