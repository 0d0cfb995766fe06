/**
 * A dry run paid once (issue 29): `mirror --dry-run` and `download --dry-run` keep the listing
 * they fetched in the response cache, so the real run right after spends nothing on it, and
 * the dry run's last line says what it saves. Requests counted at the project's own server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { runInProcess } from '../helpers/test-context.js';
import { isolatedHome, tempDirsPerTest } from '../helpers/temp.js';

const IDS_PAGES = Math.ceil(67 / 25); // the sample's 67 exercises, 25 a page

let server: CatalogueServer;
const temp = tempDirsPerTest('dry-once-');
const count = (path: string): number => server.requests.filter((r) => r.path === path).length;
const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? '';

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

/** `exercises <args>` against the server with a home of its own, so a response cache of its own. */
function cli(home: string, args: string[]) {
  return runInProcess(['--base-url', server.url, ...args], { env: { HOME: home, EXERCISES_API_KEY: PREMIUM_KEY } });
}

describe('mirror --dry-run, then mirror', () => {
  it('requests the listing once: the real run reads the dry run’s from the response cache', async () => {
    const home = isolatedHome();
    const dir = temp();
    const dry = await cli(home, ['mirror', dir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(count('/exercise/exerciseIds')).toBe(IDS_PAGES);
    // What the real run will spend: the records, not the listing again.
    expect(lastLine(dry.stderr)).toContain('67 record requests and 0 translation requests to go: 67 in all');
    expect(lastLine(dry.stderr)).toContain(`the run right after spends none on it (${IDS_PAGES} requests saved).`);

    const real = await cli(home, ['mirror', dir]);
    expect(real.code, real.stderr).toBe(0);
    expect(count('/exercise/exerciseIds')).toBe(IDS_PAGES); // not one more
    expect(real.stderr).toContain("67 ids listed (the dry run's listing, through the response cache)");
    expect(server.requests).toHaveLength(IDS_PAGES + 67);

    // The saving is for the run right after only: the next one lists anew, as a mirror always does.
    server.requests.length = 0;
    expect((await cli(home, ['mirror', dir])).code).toBe(0);
    expect(count('/exercise/exerciseIds')).toBe(IDS_PAGES);
  });

  it('with --no-cache claims no saving, and the real run lists again', async () => {
    const home = isolatedHome();
    const dir = temp();
    const dry = await cli(home, ['--no-cache', 'mirror', dir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(lastLine(dry.stderr)).not.toContain('saved');
    expect(lastLine(dry.stderr)).toContain(`${IDS_PAGES + 67} in all`);
    expect((await cli(home, ['mirror', dir])).code).toBe(0);
    expect(count('/exercise/exerciseIds')).toBe(2 * IDS_PAGES);
  });
});

describe('download --dry-run, then download', () => {
  it('requests the listing once, and the dry run’s last line says what the real run saves', async () => {
    const home = isolatedHome();
    const dir = temp();
    const dry = await cli(home, ['download', '--all', '--images', '--dir', dir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(lastLine(dry.stderr)).toMatch(
      new RegExp(
        `${IDS_PAGES} catalogue requests were made to list them, kept in the response cache: the run right after spends none on them \\(${IDS_PAGES} requests saved\\)\\.$`,
      ),
    );
    const real = await cli(home, ['download', '--all', '--images', '--dir', dir]);
    expect(real.code, real.stderr).toBe(0);
    expect(count('/exercise/exerciseIds')).toBe(IDS_PAGES);
    expect(server.requests.filter((r) => r.path.startsWith('/images/')).length).toBeGreaterThan(0);
  });
});
