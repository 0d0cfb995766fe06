/**
 * Distinct ids (and distinct media of one id) never share a path, as a file system that folds
 * Unicode normalisation (macOS) or case (macOS, Windows) would see it; the same file asked twice
 * is kept once; a job that cannot have a path of its own is reported, never silently dropped.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MEDIA, type MediaKind, stripExtension } from '../../src/catalogue/media.js';
import { type MediaJob, type UnusableEntry, jobsForRecord, mediaJob, uniqueJobs } from '../../src/media/jobs.js';
import { collisionKey, distinctComponent, safeComponent } from '../../src/media/safe-path.js';

const DIR = '/tmp/out';
const api = {
  mediaUrl(kind: MediaKind, id: string, entry: string): URL {
    if (/^https?:\/\//.test(entry)) return new URL(entry);
    // As ApiClient.mediaUrl: "start" and "start.png" are one URL.
    const file = `${stripExtension(kind, entry)}${MEDIA[kind].extension}`;
    return new URL(`http://127.0.0.1:1/${MEDIA[kind].folder}/${encodeURIComponent(id)}/premium/${encodeURIComponent(file)}`);
  },
};
const job = (id: string, name = 'start', kind: MediaKind = 'image'): MediaJob => mediaJob(api, DIR, id, kind, name);
const rel = (jobs: MediaJob[]): string[] => jobs.map((j) => j.path.slice(DIR.length + 1));
/** Every pair of paths differs once folded: no two would be one file on any of those file systems. */
const allDistinct = (jobs: MediaJob[]): boolean => new Set(jobs.map((j) => collisionKey(j.path))).size === jobs.length;

const NFC = 'Caf\u00e9';
const NFD = 'Cafe\u0301';

describe('safe-path: names that only look alike', () => {
  it('hashes a name that is not in NFC, so "é" and "e" + U+0301 stay two names', () => {
    expect(safeComponent(NFC)).toBe(NFC);
    expect(safeComponent(NFD)).not.toBe(safeComponent(NFC));
    expect(safeComponent(NFD)).toMatch(/^Café-[0-9a-f]{8}$/);
  });

  it('folds case and normalisation in the collision key', () => {
    expect(collisionKey('Plank')).toBe(collisionKey('pLANK'));
    expect(collisionKey(NFC)).toBe(collisionKey(NFD));
    expect(collisionKey('Straße')).toBe(collisionKey('STRASSE'));
    expect(collisionKey('a')).not.toBe(collisionKey('b'));
  });

  it('distinctComponent always adds a hash, and a salt changes it', () => {
    expect(distinctComponent('plank')).toMatch(/^plank-[0-9a-f]{8}$/);
    expect(distinctComponent('plank', 'http://a/1')).not.toBe(distinctComponent('plank', 'http://a/2'));
  });
});

describe('uniqueJobs', () => {
  it('gives ids that differ only in case their own folders, the same whatever the input order', () => {
    const forward = uniqueJobs([job('Plank'), job('plank'), job('PLANK')]);
    // Code-unit order: PLANK < Plank < plank; the first keeps the plain folder.
    const paths = (jobs: MediaJob[]) => Object.fromEntries(jobs.map((j) => [j.exerciseId, j.path.slice(DIR.length + 1)]));
    expect(paths(forward)).toEqual({ PLANK: 'PLANK/start.png', Plank: `Plank-${hash('Plank')}/start.png`, plank: `plank-${hash('plank')}/start.png` });
    expect(forward.map((j) => j.exerciseId)).toEqual(['Plank', 'plank', 'PLANK']); // input order kept
    expect(allDistinct(forward)).toBe(true);
    const backward = uniqueJobs([job('PLANK'), job('plank'), job('Plank')]);
    expect(paths(backward)).toEqual(paths(forward));
  });

  it('gives ids that differ only in Unicode normalisation their own folders', () => {
    const jobs = uniqueJobs([job(NFC), job(NFD)]);
    expect(jobs).toHaveLength(2);
    expect(allDistinct(jobs)).toBe(true);
    expect(jobs[0]!.path).toBe(`${DIR}/${NFC}/start.png`);
  });

  it('tells apart media of one id that differ only in case, or share a name under two URLs', () => {
    const jobs = uniqueJobs([
      job('Plank', 'start'),
      job('Plank', 'Start'),
      job('Plank', 'https://cdn.example/a/end.png'),
      job('Plank', 'https://cdn.example/b/end.png'),
    ]);
    expect(jobs).toHaveLength(4);
    expect(allDistinct(jobs)).toBe(true);
    expect(jobs.map((j) => j.url.href)).toEqual([...new Set(jobs.map((j) => j.url.href))]);
  });

  it('keeps the same file asked twice once, where it first came, and leaves clean paths as they were', () => {
    const jobs = uniqueJobs([job('Plank', 'end'), job('Squat'), job('Plank', 'end'), job('Plank', 'end.png')]);
    expect(rel(jobs)).toEqual(['Plank/end.png', 'Squat/start.png']);
  });

  it('reports a job that cannot have a path of its own instead of dropping it silently', () => {
    // A folder name crafted to be the one "plank" would step aside to.
    const crafted = `Plank-${hash('plank')}`;
    const dropped: UnusableEntry[] = [];
    const jobs = uniqueJobs([job('Plank'), job(crafted), job('plank')], (d) => dropped.push(d));
    expect(jobs.map((j) => j.exerciseId)).toEqual(['Plank', crafted]);
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatchObject({ exerciseId: 'plank', kind: 'image', entry: 'start' });
    expect(dropped[0]!.error.message).toMatch(/Left out: its folder would be the same as another exercise's/);
    expect(() => uniqueJobs([job('Plank'), job(crafted), job('plank')])).toThrow(/Left out/);
  });

  it('is applied by jobsForRecord to the media of one record', () => {
    const jobs = jobsForRecord(api, DIR, 'Plank', { premiumImages: ['start', 'Start', 'start.png'] }, ['image']);
    expect(jobs).toHaveLength(2);
    expect(allDistinct(jobs)).toBe(true);
  });
});

function hash(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8);
}
