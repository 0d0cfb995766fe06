/**
 * `--web` end to end: the page written, handed to BROWSER (a script that records its arguments),
 * then loaded in a real headless Chromium (Debian's `chromium`, driven by playwright-core, which
 * downloads no browser): each picture decodes, the video reports its duration, the console stays
 * free of errors, hostile catalogue strings render as text, and the page asks for nothing but its
 * own files. Without chromium the browser tests skip, saying why. Also: a gallery without
 * --images sends no media request, the path printed in a pipe, a failing opener.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/test-context.js';
import { tempDir, tempDirsPerTest } from '../helpers/temp.js';
import { type CatalogueServer, startServer } from '../helpers/server.js';
import { serverEnv } from '../helpers/fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const NO_CHROMIUM = `${CHROMIUM} is not installed (apt-get install chromium): the page is not checked in a browser`;
const SAMPLE = fileURLToPath(new URL('../../sample/', import.meta.url));
const scratch = tempDirsPerTest('exercises-web-');

/** A BROWSER command: a script that writes each argument it gets on a line of `<dir>/args`, and exits with `status`. */
function recordingBrowser(status = 0): { command: string; args: () => string[] } {
  const dir = scratch();
  const script = join(dir, 'browser.sh');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir}/args'\nexit ${status}\n`);
  chmodSync(script, 0o755);
  return { command: `'${script}' --new-window`, args: () => (existsSync(join(dir, 'args')) ? readFileSync(join(dir, 'args'), 'utf8').trim().split('\n') : []) };
}

/** `exercises <args>` at a terminal wide enough that no message wraps (or in a pipe), its cache directory its own, with BROWSER set. */
async function webRun(args: string[], browser: string, env: Record<string, string | undefined> = {}, tty = true) {
  return runInProcess(args, { tty, columns: 1000, env: { XDG_CACHE_HOME: scratch(), BROWSER: browser, NO_COLOR: '1', ...env } });
}

/** One headless Chromium for the file, with a fresh profile under the run's temp root. */
let browser: BrowserContext | undefined;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  browser = await chromium.launchPersistentContext(tempDir('exercises-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  // Nothing but files: any other request is refused (and seen by the test through its request list).
  await browser.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

interface Loaded {
  requests: string[];
  errors: string[];
  images: Array<{ src: string; naturalWidth: number }>;
  videos: Array<{ src: string; duration: number }>;
  text: string;
  scripts: number;
  elements: Record<string, number>;
  pwned: unknown;
}

/** The page loaded in Chromium: what it asked for, what the console said, its pictures and videos once they have loaded. */
async function load(page: string): Promise<Loaded> {
  const tab = await browser!.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  tab.on('request', (r) => requests.push(r.url()));
  tab.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  tab.on('pageerror', (e) => errors.push(e.message));
  try {
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
    await tab.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.readyState >= 1 || v.error !== null), null, { timeout: 10_000 });
    return {
      requests,
      errors,
      ...(await tab.evaluate(() => ({
        images: [...document.images].map((i) => ({ src: i.src, naturalWidth: i.naturalWidth })),
        videos: [...document.querySelectorAll('video')].map((v) => ({ src: v.currentSrc, duration: v.duration })),
        text: document.body.innerText,
        scripts: document.scripts.length,
        elements: Object.fromEntries(['img', 'video', 'b', 'iframe', 'a'].map((tag) => [tag, document.getElementsByTagName(tag).length])),
        pwned: (window as unknown as { pwned?: unknown }).pwned,
      }))),
    };
  } finally {
    await tab.close();
  }
}

/** Every request the page made is the page itself or one of the files it shows. */
function onlyOwnFiles(loaded: Loaded, page: string): void {
  const own = new Set([pathToFileURL(page).href, ...loaded.images.map((i) => i.src), ...loaded.videos.map((v) => v.src)]);
  expect(loaded.requests.filter((url) => !own.has(url))).toEqual([]);
  expect(loaded.requests.every((url) => url.startsWith('file:'))).toBe(true);
}

describe('show --web in a real browser', () => {
  it('--sandbox show Push_Up --web: the page written, BROWSER given it, both pictures decoded, no console error', async (ctx) => {
    const opener = recordingBrowser();
    const r = await webRun(['--sandbox', 'show', 'Push_Up', '--web'], opener.command);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(''); // the page was opened: nothing printed
    const [flag, page] = opener.args();
    expect(flag).toBe('--new-window'); // BROWSER's own arguments first, the page last
    expect(page).toMatch(/[/\\]exercises[/\\]web[/\\]Push_Up\.html$/);
    expect(readFileSync(page!, 'utf8')).toContain('<title>Push-Up</title>');
    expect(r.stderr).toContain(`Opening ${page} in your browser.`);
    if (!browser) return ctx.skip(NO_CHROMIUM);
    const loaded = await load(page!);
    expect(loaded.images.map((i) => i.src.split('/').pop())).toEqual(['start.png', 'end.png']);
    for (const image of loaded.images) expect(image.naturalWidth, image.src).toBeGreaterThan(0);
    expect(loaded.errors).toEqual([]);
    expect(loaded.text).toMatch(/Primary muscles\s+chest/);
    onlyOwnFiles(loaded, page!);
  });

  it('with --videos the video plays: it reports its duration', async (ctx) => {
    if (!browser) return ctx.skip(NO_CHROMIUM);
    const opener = recordingBrowser();
    const r = await webRun(['--sandbox', 'show', 'Push_Up', '--web', '--videos'], opener.command);
    expect(r.code, r.stderr).toBe(0);
    const page = opener.args().at(-1)!;
    const loaded = await load(page);
    expect(loaded.videos).toHaveLength(1);
    // The sample's clips are one-second H.264 videos (scripts/generate-sample.mjs).
    expect(loaded.videos[0]!.duration).toBeGreaterThan(0.5);
    expect(loaded.errors).toEqual([]);
    onlyOwnFiles(loaded, page);
  });

  it('a hostile catalogue renders as text: no script ran, no element injected, its pictures still shown', async (ctx) => {
    if (!browser) return ctx.skip(NO_CHROMIUM);
    const dir = scratch();
    const id = 'Evil_"><b>x';
    const picture = '"><img src=x onerror="window.pwned=3">';
    const record = {
      id,
      name: '<script>window.pwned=1</script>',
      displayName: '<script>window.pwned=1</script>',
      aliases: ['"><img src=x onerror="window.pwned=2">', "'><iframe src=https://example.invalid>"],
      category: 'STRENGTH',
      primaryMuscle: ['CHEST'],
      instructions: ['</li></ol><script>window.pwned=4</script><a href="https://example.invalid">click</a>'],
      premiumImages: [picture],
    };
    writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify(record)}\n`);
    mkdirSync(join(dir, 'images', id, 'premium'), { recursive: true });
    writeFileSync(join(dir, 'images', id, 'premium', `${picture}.png`), readFileSync(join(SAMPLE, 'images/Push_Up/premium/start.png')));
    const opener = recordingBrowser();
    const r = await webRun(['--catalogue', dir, 'show', id, '--web'], opener.command);
    expect(r.code, r.stderr).toBe(0);
    const page = opener.args().at(-1)!;
    const loaded = await load(page);
    expect(loaded.pwned).toBeUndefined();
    expect(loaded.scripts).toBe(0);
    expect(loaded.elements).toEqual({ img: 1, video: 0, b: 0, iframe: 0, a: 0 });
    expect(loaded.images[0]!.naturalWidth).toBeGreaterThan(0); // found under its hostile name
    for (const text of [record.name, id, ...record.aliases, record.instructions[0]!, picture]) expect(loaded.text).toContain(text);
    expect(loaded.errors).toEqual([]);
    onlyOwnFiles(loaded, page);
  });
});

describe('--web without a browser to open', () => {
  it('in a pipe: the path printed on stdout, one line, and BROWSER not run', async () => {
    const opener = recordingBrowser();
    const r = await webRun(['--sandbox', 'image', 'Plank', '--web'], opener.command, {}, false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\S*[/\\]web[/\\]Plank\.html\n$/);
    expect(readFileSync(r.stdout.trim(), 'utf8')).toContain('start.png');
    expect(opener.args()).toEqual([]);
  });

  it('over SSH without BROWSER: the path printed, saying why', async () => {
    const r = await webRun(['--sandbox', 'show', 'Plank', '--web'], '', { SSH_CONNECTION: '10.0.0.1 5 10.0.0.2 22' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/[/\\]web[/\\]Plank\.html\n$/);
    expect(r.stderr).toMatch(/Not opening a browser: this is a session over SSH/);
  });

  it('a failing opener: exit 6, saying so, the path printed', async () => {
    const opener = recordingBrowser(3);
    const r = await webRun(['--sandbox', 'show', 'Plank', '--web'], opener.command);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/Could not open the page in a browser: .*browser\.sh exited with status 3\./);
    expect(r.stdout.trim()).toBe(opener.args().at(-1));
  });
});

describe('--web flags', () => {
  it.each([
    [['show', 'Plank', '--videos'], /--videos goes with --web/],
    [['show', 'Plank', '--web', '--images'], /--images draws the pictures at the terminal, --web shows them in the browser/],
    [['image', 'Plank', '--web', '--view'], /--web shows the images in the browser.*without --view, -o and --dir/],
    [['query', '--images'], /--images goes with --web/],
    [['query', '--web', '--pick'], /--pick chooses at the terminal, --web opens the results in the browser/],
  ])('%j is a usage error before any request', async (args, message) => {
    const r = await runInProcess(['--sandbox', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('query --web', () => {
  let server: CatalogueServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const mediaRequests = () => server.requests.filter((r) => /^\/(images|videos)\//.test(r.path)).length;

  it('without --images: no media request (the server log shows none); the page and stderr say what asking would cost', async () => {
    const before = server.requests.length;
    const r = await webRun(['query', '--muscle', 'chest', '--web'], '', serverEnv(server), false);
    expect(r.code, r.stderr).toBe(0);
    const logged = server.requests.slice(before).map((q) => q.path);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((path) => /^\/(images|videos)\//.test(path))).toEqual([]);
    expect(r.stderr).toMatch(/^\d+ images not on this machine; --images fetches them \(\d+ requests\)\.$/m);
    const page = readFileSync(r.stdout.trim(), 'utf8');
    expect(page).toMatch(/\d+ images not on this machine; --images fetches them \(\d+ requests\)\./);
    expect(page).toContain('Barbell Bench Press');
  });

  it('with --images: each picture fetched once (a request each), kept for the next look', async () => {
    const before = mediaRequests();
    const env = { ...serverEnv(server), XDG_CACHE_HOME: scratch() };
    const first = await runInProcess(['query', '--name', 'push-up', '--web', '--images'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(mediaRequests()).toBe(before + 2);
    expect(first.stderr).not.toMatch(/images not on this machine/);
    expect(readFileSync(first.stdout.trim(), 'utf8')).toMatch(/<img src="[^"]*Push_Up\/start\.png"/);
    const again = await runInProcess(['query', '--name', 'push-up', '--web', '--images'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(mediaRequests()).toBe(before + 2);
  });
});
