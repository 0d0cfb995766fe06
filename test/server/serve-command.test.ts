/**
 * `exercises serve`: in-process (runCli with a test context, stopped by aborting its signal as
 * main() does on Ctrl-C), and as a child process for the real SIGINT and SIGTERM.
 * The child process runs the built CLI: build first (npm test does).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

/** Runs `exercises serve ...` in-process, waits for its first stdout line, runs `use(url)`, then interrupts it. */
async function withServe(args: string[], use: (url: string) => Promise<void>): Promise<CliResult & { firstLine: string }> {
  let firstLine = '';
  let used: Promise<void> | undefined;
  const result = await runInProcess(['serve', ...args], {
    timeoutMs: 20_000,
    onStart(t) {
      used = t.stdout.waitFor(/\n/).then(async (text) => {
        firstLine = text.slice(0, text.indexOf('\n'));
        try {
          await use(firstLine.replace(/^Listening on /, ''));
        } finally {
          t.abort();
        }
      });
    },
  });
  if (firstLine) await used; // a run that failed before listening never printed a line
  return { ...result, firstLine };
}

/** The same with the built CLI as a child process, stopped with a real signal. */
async function withServeProcess(args: string[], signal: NodeJS.Signals): Promise<CliResult & { firstLine: string }> {
  let firstLine = '';
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
        child.kill(signal);
      });
    },
  });
  return { ...result, firstLine };
}

describe('exercises serve', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('serves the sample, logs each request without the key, and exits 0 when interrupted', async () => {
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
    const logLines = result.stderr.split('\n').filter((l) => / GET /.test(l));
    // Each line led by the time, ISO 8601 UTC, as the proxy's are.
    expect(logLines).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/exercise\/query\?name=plank&limit=2 200 \d+(\.\d+)?ms$/),
      expect.stringMatching(/Z GET \/exercise\/Plank 200 /),
      expect.stringMatching(/Z GET \/exercise\/Plank 401 /),
    ]);
    expect(Date.parse(logLines[0]!.split(' ')[0]!)).toBeGreaterThan(Date.now() - 60_000);
    // The sandbox keys are public and named once at start-up; request lines never carry a key.
    expect(logLines.join('\n')).not.toMatch(/sandbox-(premium|free)/);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it.each([['SIGTERM'], ['SIGINT']] as const)('closes cleanly on %s as a child process', async (signal) => {
    const result = await withServeProcess(['--port', '0'], signal);
    expect(result.firstLine).toMatch(/^Listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
  });

  it('accepts only the given keys and serves the given directory', async () => {
    const dir = tempDir('exercises-serve-');
    dirs.push(dir);
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify({ id: 'Only_One', name: 'Only One' })}\n`);
    const statuses: number[] = [];
    let total = -1;
    const result = await withServe([dir, '--port', '0', '--key', 'team:key:premium', '--key', 'guest:free'], async (url) => {
      for (const key of ['team:key', 'guest', 'sandbox-premium']) {
        const res = await fetch(`${url}/exercise/exerciseIds`, { headers: { 'X-API-Key': key } });
        statuses.push(res.status);
        if (res.status === 200) total = (await res.json()).pagination.total;
      }
    });
    expect(statuses).toEqual([200, 200, 401]);
    expect(total).toBe(1);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/team:key|guest /);
  });

  it.each([['0.0.0.0']])('on every interface (%s): warns, and prints a loopback URL that answers', async (host) => {
    let status = 0;
    const result = await withServe(['--host', host, '--port', '0'], async (url) => {
      status = (await fetch(`${url.split(' ')[0]}/exercise/Plank`, { headers: { 'X-API-Key': 'sandbox-free' } })).status;
    });
    expect(result.firstLine).toMatch(new RegExp(`^Listening on http://127\\.0\\.0\\.1:\\d+ \\(all interfaces, ${host.replace(/\./g, '\\.')}\\)$`));
    expect(status).toBe(200);
    expect(result.stderr).toMatch(/^\S+Z Warning: .*not on loopback/m);
    expect(result.code).toBe(0);
  });

  it('does not warn for a loopback name in any case', async () => {
    const result = await withServe(['--host', 'LocalHost', '--port', '0'], async () => {});
    expect(result.firstLine).toMatch(/^Listening on /);
    expect(result.stderr).not.toMatch(/Warning/);
    expect(result.code).toBe(0);
  });

  it.each([['nokey'], ['k:gold'], [':premium']])('rejects --key %s as a usage error', async (key) => {
    const result = await runInProcess(['serve', '--port', '0', '--key', key], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--key must be KEY:PLAN/);
    expect(result.stdout).toBe('');
  });

  it('rejects a bad catalogue line as a usage error naming the line', async () => {
    const dir = tempDir('exercises-serve-');
    dirs.push(dir);
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify({ id: 'A', name: 'A' })}\n{"id":"B","name":"B","level":"GURU"}\n`);
    const result = await runInProcess(['serve', dir, '--port', '0'], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(dir, 'exercises.jsonl')}:2:`);
    expect(result.stderr).toMatch(/level/);
  });

  it('rejects a bad port', async () => {
    const result = await runInProcess(['serve', '--port', '70000'], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
  });

  it('ends its help with examples', async () => {
    const result = await runInProcess(['serve', '--help']);
    expect(result.code).toBe(0);
    // The shared shape of every command's help: terminal examples, then pipeline examples, last.
    expect(result.stdout).toMatch(/\nEXAMPLES\n {2}\$ exercises serve[\s\S]*\n {2}# in pipelines\n {2}\$ [\s\S]*exercises [\s\S]*\n\nLEARN MORE\n/);
  });
});
