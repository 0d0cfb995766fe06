/**
 * Output formats parsed back, piped output free of escapes, --all over both paging styles,
 * the next-page command, and the key absent from everything --verbose prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { ANSI, CATALOGUE, PREMIUM_KEY, jsonlIds, parseCsv, parseTsv, serverEnv, sortedIds } from '../helpers/fixtures.js';

let server: CatalogueServer;
let bare: CatalogueServer; // sends no cursors: pagination is only { total }
beforeAll(async () => {
  [server, bare] = await Promise.all([startServer(), startServer({ cursors: false })]);
});
afterAll(() => Promise.all([server.close(), bare.close()]));

const ALL_IDS = sortedIds(CATALOGUE);

describe('formats', () => {
  it('json keeps the API list shape', async () => {
    const r = await runInProcess(['ids', '--limit', '5', '--format', 'json'], { env: serverEnv(server) });
    const body = JSON.parse(r.stdout);
    expect(body.exercises).toHaveLength(5);
    expect(body.pagination.total).toBe(CATALOGUE.length);
  });

  it('json with --all streams every item in the list shape', async () => {
    const r = await runInProcess(['ids', '--all', '--json'], { env: serverEnv(server) });
    const body = JSON.parse(r.stdout);
    expect(sortedIds(body.exercises)).toEqual(ALL_IDS);
    expect(body.pagination).toEqual({ total: CATALOGUE.length });
  });

  it('json of an empty result is still valid', async () => {
    const r = await runInProcess(['query', '--name', 'zzzz-nothing', '--json'], { env: serverEnv(server) });
    expect(JSON.parse(r.stdout)).toEqual({ exercises: [], pagination: expect.objectContaining({ total: 0 }) });
  });

  it('csv (with its header) and tsv (without: for programs) read back to the same fields as jsonl', async () => {
    const args = ['query', '--all', '--muscle', 'chest'];
    const [jsonl, csv, tsv] = await Promise.all(['jsonl', 'csv', 'tsv'].map((f) => runInProcess([...args, '--format', f], { env: serverEnv(server) })));
    const items = jsonl!.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const [header, ...csvRows] = parseCsv(csv!.stdout);
    expect(header).toEqual(['id', 'name', 'displayName', 'aliases', 'premiumImages', 'premiumVideos']);
    for (const data of [csvRows, parseTsv(tsv!.stdout)]) {
      expect(data.map((r) => r[0])).toEqual(items.map((i) => i.id));
      expect(data.map((r) => r[1])).toEqual(items.map((i) => i.name));
      expect(data.map((r) => r[3])).toEqual(items.map((i) => (i.aliases ?? []).join('; ')));
    }
  });

  it('show writes records as csv and tsv with one row each (a header in csv only)', async () => {
    const ids = CATALOGUE.slice(0, 3).map((e) => e.id);
    const csv = parseCsv((await runInProcess(['show', ...ids, '--format', 'csv'], { env: serverEnv(server) })).stdout);
    const tsv = parseTsv((await runInProcess(['show', ...ids, '--format', 'tsv'], { env: serverEnv(server) })).stdout);
    const [header, ...csvRows] = csv;
    expect(header).toContain('instructions');
    for (const rows of [csvRows, tsv]) {
      expect(rows.map((row) => row[0])).toEqual(ids);
      const instructions = rows[0]![header!.indexOf('instructions')]!;
      expect(instructions).toBe((CATALOGUE[0]!.instructions ?? []).join('; '));
    }
  });

  it('piped output defaults to tsv with no header and no ANSI escapes, never truncated', async () => {
    const r = await runInProcess(['query', '--all', '--name', 'press'], { env: serverEnv(server, { FORCE_COLOR: '1' }) });
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stdout.split('\n')[0]!.split('\t')[0]).toMatch(/Press/);
    const longest = CATALOGUE.map((e) => e.name).sort((a, b) => b.length - a.length)[0]!;
    const all = await runInProcess(['ids', '--all'], { env: serverEnv(server, { COLUMNS: '20' }), columns: 20 });
    expect(all.stdout).toContain(longest);
    // `exercises ids --all | wc -l` counts exercises.
    expect(all.stdout.split('\n').filter((l) => l !== '')).toHaveLength(CATALOGUE.length);
  });
});

describe('--all over both paging styles', () => {
  for (const [style, get] of [
    ['server cursors', () => server],
    ['no cursors (id fallback)', () => bare],
  ] as const) {
    it(`follows ${style} to the end`, async () => {
      const s = get();
      const before = s.requests.length;
      const r = await runInProcess(['ids', '--all', '--limit', '10', '--format', 'jsonl'], { env: serverEnv(s) });
      expect(r.code).toBe(0);
      const ids = jsonlIds(r.stdout);
      expect([...ids].sort()).toEqual(ALL_IDS);
      expect(new Set(ids).size).toBe(ids.length);
      expect(s.requests.length - before).toBe(Math.ceil(CATALOGUE.length / 10));
    });

    it(`stops at --max with ${style}, asking only for what it shows`, async () => {
      const s = get();
      const before = s.requests.length;
      const r = await runInProcess(['query', '--max', '30', '--format', 'jsonl'], { env: serverEnv(s) });
      expect(jsonlIds(r.stdout)).toHaveLength(30);
      expect(s.requests.length - before).toBe(2); // 25 + 5
    });
  }

  it('walks backwards with --before', async () => {
    const all = jsonlIds((await runInProcess(['ids', '--all', '--format', 'jsonl'], { env: serverEnv(server) })).stdout);
    const r = await runInProcess(['ids', '--before', all[12]!, '--limit', '5', '--all', '--format', 'jsonl'], { env: serverEnv(server) });
    expect([...jsonlIds(r.stdout)].sort()).toEqual(all.slice(0, 12).sort());
  });

  it('the table footer gives the exact command for the next page', async () => {
    const r = await runInProcess(['ids', '--limit', '4', '--format', 'table'], { env: serverEnv(server) });
    // Too wide for 80 columns on one line: the command goes under the sentence, its lines joined by ` \`.
    const text = r.stdout.trimEnd();
    const footer = text.slice(text.indexOf(`1–4 of ${CATALOGUE.length} exercises · next page:`));
    for (const line of footer.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(footer).toMatch(/^ {2}exercises ids .*--after \S+$/m); // on its own line, the cursor beside its flag
    const command = footer
      .slice(footer.indexOf('next page:') + 'next page:'.length)
      .replace(/ \\\n/g, ' ')
      .trim()
      .replace(/\s+/g, ' ');
    expect(command).toMatch(/^exercises ids --limit 4 --format table --after \S+$/);
    const next = command.split(' ').slice(1);
    const page2 = await runInProcess([...next.slice(0, -4), '--format', 'jsonl', ...next.slice(-2)], { env: serverEnv(server) });
    const first8 = jsonlIds((await runInProcess(['ids', '--limit', '8', '--format', 'jsonl'], { env: serverEnv(server) })).stdout);
    expect(jsonlIds(page2.stdout)).toEqual(first8.slice(4));
  });
});

describe('the key never appears', () => {
  it('is absent from stdout and stderr with --verbose, even when given as a flag', async () => {
    // One after the other: each run's --verbose lines must be its own.
    const runs = [];
    for (const [args, env] of [
      [['-v', 'ids', '--limit', '2', '--format', 'table'], serverEnv(server)],
      [['-v', '--api-key', PREMIUM_KEY, 'query', '--limit', '2', '--format', 'table'], { EXERCISES_BASE_URL: server.url }],
      [['-v', 'show', 'Nope'], serverEnv(server)],
      [['-v', 'auth', 'status'], serverEnv(server)],
    ] as const) {
      runs.push(await runInProcess([...args], { env }));
    }
    for (const r of runs) {
      expect(r.stderr).toMatch(/GET http/);
      expect(r.stdout + r.stderr).not.toContain(PREMIUM_KEY);
    }
    expect(runs[0]!.stderr).toMatch(/^using http:\/\/127\.0\.0\.1:\d+\/ with the key from EXERCISES_API_KEY; timeout 30000 ms, 3 retries$/m);
    expect(runs[1]!.stderr).toMatch(/^using http:\/\/127\.0\.0\.1:\d+\/ with the key from --api-key;/m);
  });
});

describe('colour, decided from the context alone', () => {
  it('a terminal gets colour; NO_COLOR, --no-color or a pipe get none, whatever the test process is', async () => {
    const args = ['--no-pager', 'ids', '--limit', '3', '--format', 'table'];
    const terminal = await runInProcess(args, { env: serverEnv(server), stdoutIsTTY: true });
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout).toMatch(ANSI);
    for (const r of [
      await runInProcess(args, { env: serverEnv(server, { NO_COLOR: '1' }), stdoutIsTTY: true }),
      await runInProcess(['--no-color', ...args], { env: serverEnv(server), stdoutIsTTY: true }),
      await runInProcess(args, { env: serverEnv(server, { FORCE_COLOR: '3' }), stdoutIsTTY: false }),
    ]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^ID\s+NAME/);
      expect(r.stdout).not.toMatch(ANSI);
    }
  });

  it('the show card is painted only on a terminal', async () => {
    const card = await runInProcess(['show', 'Plank'], { env: serverEnv(server), tty: true });
    expect(card.stdout).toMatch(ANSI);
    const plain = await runInProcess(['show', 'Plank', '--format', 'table'], { env: serverEnv(server) });
    expect(plain.stdout).toMatch(/Plank/);
    expect(plain.stdout).not.toMatch(ANSI);
  });
});
