/**
 * The proxy as an operator runs it: probes and scrapes kept out of the access log and the
 * client counts (unless logProbes), keys written into a client's URL kept out of every file the
 * proxy writes (and out of the upstream's requests) while the answer stays right, and the keys
 * file's mistakes named: a key given twice or the upstream key refused by line, a label given twice warned.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseKeysFile } from '../../src/proxy/secret-files.js';
import { ALICE, GUEST, type ProxyFixture, UPSTREAM_KEY, startProxy } from './proxy-helpers.js';

let f: ProxyFixture | undefined;
afterEach(async () => {
  await f?.stop();
  f = undefined;
});

/** Every file under `dir`, with its path relative to it. */
function filesUnder(dir: string): Array<{ path: string; bytes: Buffer }> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: join(e.parentPath, e.name).slice(dir.length), bytes: readFileSync(join(e.parentPath, e.name)) }));
}

describe('probes and scrapes', () => {
  test('/-/metrics, /-/status and /-/ping are neither logged nor counted; client requests still are', async () => {
    f = await startProxy();
    expect((await fetch(`${f.proxy.url}/-/metrics`)).status).toBe(200);
    expect((await f.get('/-/status')).status).toBe(200);
    await fetch(`${f.proxy.url}/-/ping`);
    expect((await f.get('/exercise/Plank')).status).toBe(200);
    const metrics = await (await fetch(`${f.proxy.url}/-/metrics`)).text();
    const status = (await (await f.get('/-/status')).json()) as { hits: number; misses: number; errors: number };
    await new Promise((resolve) => setImmediate(resolve));
    expect(f.log).toHaveLength(1);
    expect(f.log[0]).toMatch(/Z [0-9a-f]{8} GET \/exercise\/Plank 200 miss /);
    expect(metrics).not.toMatch(/client="-"/);
    expect(metrics).not.toMatch(/answered="none"/);
    expect(metrics).toMatch(/exercises_proxy_requests_total\{answered="miss",status="200"\} 1\n/);
    expect(status).toMatchObject({ hits: 0, misses: 1, errors: 0 });
  });

  test('with logProbes they are logged and counted, /-/status answered as no hit', async () => {
    f = await startProxy({ logProbes: true });
    await fetch(`${f.proxy.url}/-/metrics`);
    await f.get('/-/status');
    await new Promise((resolve) => setImmediate(resolve));
    expect(f.log).toEqual([expect.stringMatching(/Z - GET \/-\/metrics 200 - /), expect.stringMatching(/Z [0-9a-f]{8} GET \/-\/status 200 - /)]);
    expect(f.proxy.stats.all.requests).toBe(2);
  });
});

describe('keys in a URL', () => {
  test('a client key or the upstream key in the query or the path is in no file the proxy writes, nor sent upstream; the answers are right', async () => {
    f = await startProxy();
    const targets = [
      `/exercise/Push_Up?api_key=${ALICE}`,
      `/exercise/Plank?lang=de-DE&API-KEY=${encodeURIComponent(GUEST)}`,
      `/exercise/Plank?apiKey=${ALICE}&lang=de-DE`,
      `/exercise/Plank?x=${UPSTREAM_KEY}&lang=de-DE`,
      `/exercise/query?name=plank&Key=${ALICE}`,
      `/exercise/query?name=plank&limit=1&token=${encodeURIComponent(GUEST)}`,
    ];
    const answers = [];
    for (const target of targets) {
      const res = await f.get(target);
      answers.push({ status: res.status, body: (await res.json()) as { id?: string; exercises?: unknown[] } });
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers[0]!.body.id).toBe('Push_Up');
    expect(answers[1]!.body).toEqual(answers[2]!.body);
    expect(answers[4]!.body.exercises!.length).toBeGreaterThan(0);
    expect(answers[5]!.body.exercises).toHaveLength(1);
    // The same answer however the key was written: one upstream request for the two de-DE Planks with a key, then hits.
    expect(f.upstream.requests.filter((r) => r.path === '/exercise/Plank')).toHaveLength(1);

    const asPath = await f.get(`/exercise/${ALICE}`);
    expect(asPath.status).toBe(404);
    expect((await f.get(`/images/${encodeURIComponent(ALICE)}/premium/start.png`)).status).toBe(404);

    const upstreamSaw = f.upstream.requests.map((r) => `${r.path}?${r.query}`).join('\n');
    const files = filesUnder(f.root);
    expect(files.length).toBeGreaterThan(3);
    for (const key of [ALICE, GUEST, UPSTREAM_KEY]) {
      expect(upstreamSaw).not.toContain(key);
      for (const file of files) {
        expect(file.path).not.toContain(key);
        expect(file.bytes.includes(key), `${file.path} holds ${key}`).toBe(false);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(f.log.join('\n')).not.toContain(ALICE);
    expect(f.log.join('\n')).toContain('GET /exercise/*** 404');
  });
});

describe('keys-file mistakes', () => {
  test('a key given twice or the upstream key is refused by line, quoting neither; a label given twice is warned of', () => {
    const refused = (text: string): string => {
      try {
        parseKeysFile(text, 'team-keys', { upstreamKey: 'the-upstream-key' });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    expect(refused('# team\nalice-0123:premium:alice\nbob-4567:free\nalice-0123:free:again\n')).toBe(
      'team-keys:4: the same key as line 2; each client needs a key of its own.',
    );
    expect(refused('alice-0123:premium\nthe-upstream-key:premium:ci\n')).toBe('team-keys:2: this is the upstream key; a client needs a key of its own.');
    const warnings: string[] = [];
    const keys = parseKeysFile('a-0123:premium:alice\nb-4567:free:alice\n', 'team-keys', { warn: (line) => warnings.push(line) });
    expect(Object.keys(keys)).toEqual(['a-0123', 'b-4567']);
    expect(warnings).toEqual(['team-keys:2: the label alice is also on line 1; both keys count as one client.']);
  });
});
