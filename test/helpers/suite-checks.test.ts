/**
 * The suite's own checks: a tmux server left running is stopped and named (test/helpers/tmux.ts,
 * which every terminal test goes through), the end-of-run leak check claims only names made
 * with a prefix the suite used (test/helpers/temp-prefixes.ts), never another program's file,
 * and a fake transport's answers no request asked for fail the test (httpmock.ts verify).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { FAKE_BASE_URL, httpmock } from './httpmock.js';
import { madeWithPrefix, prefixesUsed, recordPrefix } from './temp-prefixes.js';
import { tempDir, tempRoot } from './temp.js';
import { HAVE_TMUX, stopAndFail, tmuxServer } from './tmux.js';
import { runningServers, serverRunning, tmuxDir } from './tmux-sockets.js';
import { homeLeaks, homeSnapshot } from '../setup/home-check.js';

describe('tmux servers of a test', () => {
  it('keep their socket under the run temp root, and one left running is stopped and fails the check', async (ctx) => {
    if (!HAVE_TMUX) ctx.skip(true, 'tmux is not installed (apt-get install -y tmux)');
    const server = tmuxServer('exercises-check');
    expect(server.socket.startsWith(`${tmuxDir(tempRoot())}/`)).toBe(true);
    await server.exec('new-session', '-d', 'sleep 60');
    expect(serverRunning(server.socket)).toBe(true);
    expect(runningServers(tmuxDir(tempRoot()))).toContain(server.socket);
    expect(() => stopAndFail([server.socket], 'This test')).toThrow(/This test left 1 tmux server\(s\) running \(now stopped\)/);
    expect(serverRunning(server.socket)).toBe(false);
    // Stopped already: nothing to say.
    expect(() => stopAndFail([server.socket], 'This test')).not.toThrow();
  });

  it('a failing tmux command names itself and what tmux said', async (ctx) => {
    if (!HAVE_TMUX) ctx.skip(true, 'tmux is not installed (apt-get install -y tmux)');
    const server = tmuxServer('exercises-check');
    await expect(server.exec('capture-pane', '-p')).rejects.toThrow(/tmux capture-pane -p failed/);
    expect(existsSync(server.socket)).toBe(false);
  });
});

describe('names the leak check claims', () => {
  it('a recorded prefix plus the six characters of mkdtemp, and nothing else', () => {
    const root = tempDir('exercises-prefix-check-');
    recordPrefix(root, 'exercises-home-');
    recordPrefix(root, 'pager-');
    recordPrefix(root, 'x'); // too short to claim anything by
    const used = prefixesUsed(root);
    expect(used.sort()).toEqual(['exercises-home-', 'pager-']);
    expect(madeWithPrefix('exercises-home-Ab12Cd', used)).toBe(true);
    expect(madeWithPrefix('pager-zzzzzz', used)).toBe(true);
    // Another program's names, even alike.
    expect(madeWithPrefix('exercises-home-notours.log', used)).toBe(false);
    expect(madeWithPrefix('exercises-tricks-lu3EBK', used)).toBe(false);
    expect(madeWithPrefix('xAb12Cd', used)).toBe(false);
    expect(madeWithPrefix('tmux-0', used)).toBe(false);
  });
});

describe('the real home check', () => {
  it("names what the suite's programs make there since the snapshot, and nothing of other programs'", () => {
    const home = tempDir('exercises-home-check-');
    mkdirSync(join(home, '.config', 'pip'), { recursive: true });
    const before = homeSnapshot(home);
    mkdirSync(join(home, '.config', 'fish'));
    mkdirSync(join(home, '.local', 'share', 'fish'), { recursive: true });
    mkdirSync(join(home, '.cache', 'exercises'), { recursive: true });
    writeFileSync(join(home, '.zsh_history'), '');
    mkdirSync(join(home, '.npm')); // another program's
    mkdirSync(join(home, '.config', 'editor'));
    expect(homeLeaks(home, before)).toEqual(['.cache/exercises', '.config/fish', '.local/share/fish', '.zsh_history'].map((p) => join(home, p)));
  });

  it('gives every child a home of the run: HOME and the XDG directories point under the temp root', () => {
    for (const name of ['HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME']) {
      expect(process.env[name], name).toBeDefined();
      expect(process.env[name]!.startsWith(`${tempRoot()}/`), name).toBe(true);
    }
  });
});

describe('stubs of the fake transport', () => {
  it('one no request asked for fails verify; once asked for, verify passes', async () => {
    const http = httpmock();
    try {
      http.json('/exercise/Plank', { id: 'Plank' });
      http.json('/exercise/Box_Jump', { id: 'Box_Jump' }, { times: Infinity });
      await (await request(`${FAKE_BASE_URL}/exercise/Plank`, { dispatcher: http.agent })).body.text();
      expect(() => http.verify()).toThrow(/1 interceptor is pending/);
      await (await request(`${FAKE_BASE_URL}/exercise/Box_Jump`, { dispatcher: http.agent })).body.text();
      expect(() => http.verify()).not.toThrow();
    } finally {
      await http.close();
    }
  });
});
