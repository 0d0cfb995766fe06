import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasMediaFields, mediaEntries, mediaFileName, mediaName } from '../../src/media/media-names.js';
import { checkContentType, checkLength, checkMagic, hasMagic, looksComplete, PNG_SIGNATURE } from '../../src/media/verify.js';
import { tempDir } from '../helpers/temp.js';

const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
const PNG_HEAD = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(8)]);

describe('media names', () => {
  it('strips the extension of its kind only', () => {
    expect(mediaName('image', 'start.png')).toBe('start');
    expect(mediaName('image', 'start.PNG')).toBe('start');
    expect(mediaName('image', 'start')).toBe('start');
    expect(mediaName('video', 'start.png')).toBe('start.png');
    expect(mediaName('video', 'loop.mp4')).toBe('loop');
  });
  it('takes the last segment of URLs and paths, percent-decoded', () => {
    expect(mediaName('image', 'https://cdn.example/images/x/premium/end%20pose.png?sig=1')).toBe('end pose');
    expect(mediaName('video', '/videos/x/premium/loop.mp4')).toBe('loop');
  });
  it('keeps a hostile bare name as a name, and the file name safe', () => {
    expect(mediaName('image', '../x')).toBe('../x');
    const file = mediaFileName('image', '../x');
    expect(file.endsWith('.png')).toBe(true);
    expect(file).not.toContain('/');
    expect(file.startsWith('.')).toBe(false);
  });
  it('lists the entries of the kinds asked, skipping junk and duplicates', () => {
    const record = { premiumImages: ['start', 'start.png', '', 7, 'end'], premiumVideos: ['loop'] };
    expect(mediaEntries(record, ['image'])).toEqual([
      { kind: 'image', entry: 'start' },
      { kind: 'image', entry: 'end' },
    ]);
    expect(mediaEntries(record, ['image', 'video'])).toHaveLength(3);
    expect(mediaEntries({}, ['image', 'video'])).toEqual([]);
  });
  it('tells whether the premium fields are there at all', () => {
    expect(hasMediaFields({}, ['image', 'video'])).toBe(false);
    expect(hasMediaFields({ premiumVideos: [] }, ['image', 'video'])).toBe(true);
    expect(hasMediaFields({ premiumVideos: [] }, ['image'])).toBe(false);
  });
});

describe('verification', () => {
  it('recognises the PNG signature and the MP4 ftyp box', () => {
    expect(hasMagic('image', PNG_HEAD)).toBe(true);
    expect(hasMagic('video', MP4_HEAD)).toBe(true);
    expect(hasMagic('image', MP4_HEAD)).toBe(false);
    expect(hasMagic('video', PNG_HEAD)).toBe(false);
    expect(hasMagic('image', Buffer.from('<!doctype html>'))).toBe(false);
    expect(hasMagic('video', Buffer.from('<html><body>'))).toBe(false);
    expect(hasMagic('image', PNG_HEAD.subarray(0, 4))).toBe(false);
    expect(() => checkMagic('video', Buffer.from('nope'), 'video loop of x')).toThrow(/not an MP4 video/);
  });
  it('accepts the right Content-Type, octet-stream, or none; refuses HTML and others', () => {
    expect(() => checkContentType('image', 'image/png', 'x')).not.toThrow();
    expect(() => checkContentType('video', 'video/mp4; codecs="avc1"', 'x')).not.toThrow();
    expect(() => checkContentType('video', 'application/octet-stream', 'x')).not.toThrow();
    expect(() => checkContentType('image', undefined, 'x')).not.toThrow();
    expect(() => checkContentType('image', 'text/html; charset=utf-8', 'x')).toThrow(/text\/html instead of a PNG image/);
    expect(() => checkContentType('video', 'image/png', 'x')).toThrow(/instead of an MP4 video/);
  });
  it('compares the announced length with the bytes on disk', () => {
    expect(() => checkLength(10, 10, 'x')).not.toThrow();
    expect(() => checkLength(undefined, 10, 'x')).not.toThrow();
    expect(() => checkLength(10, 5, 'x')).toThrow(/announced 10 bytes .* but 5 arrived/);
  });
  it('judges a file on disk by its magic', async () => {
    const dir = tempDir('verify-');
    writeFileSync(join(dir, 'a.png'), PNG_HEAD);
    writeFileSync(join(dir, 'b.png'), '<html>');
    expect(await looksComplete('image', join(dir, 'a.png'))).toBe(true);
    expect(await looksComplete('image', join(dir, 'b.png'))).toBe(false);
    expect(await looksComplete('image', join(dir, 'missing.png'))).toBe(false);
  });
});
