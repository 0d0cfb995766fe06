#!/usr/bin/env node
/**
 * Writes the shipped sample catalogue (sample/) from scripts/sample-exercises.mjs:
 *   sample/exercises.jsonl                       one record per line, ids derived from names
 *   sample/images/<id>/premium/{start,end}.png   small valid PNGs, encoded here with node:zlib
 *   sample/videos/<id>/premium/demo.mp4          one-second 64x64 H.264 clips made with ffmpeg
 *
 * The generated files are committed, so installing or testing never needs ffmpeg. Media that
 * already exist are kept; pass --force to make them all again (ffmpeg must then be on PATH).
 *
 *   npm run build && node scripts/generate-sample.mjs [--force]   (the enum values come from dist/)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { EXERCISES } from './sample-exercises.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLE = join(ROOT, 'sample');
const force = process.argv.includes('--force');

/** Every value the sample must use at least once, from the one source of truth (dist/, so build first). */
const { ENUMS: ENUM_VALUES } = await import(join(ROOT, 'dist', 'catalogue', 'enums.js'));
const ENUMS = {
  category: ENUM_VALUES.Category,
  muscle: ENUM_VALUES.Muscle,
  force: ENUM_VALUES.Force,
  level: ENUM_VALUES.Level,
  mechanic: ENUM_VALUES.Mechanic,
  equipment: ENUM_VALUES.Equipment,
};

/** `Barbell Bench Press` → `Barbell_Bench_Press`: accents dropped, every other non-alphanumeric as `_`. */
export function idFromName(name) {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]/g, '_');
}

// ---- PNG: signature, IHDR, IDAT (zlib), IEND, each chunk with its CRC-32 ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A size×size RGB image: a diagonal gradient in the exercise's colour; `end` is mirrored. */
function makePng(seed, variant, size = 48) {
  const hue = [...seed].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % 360;
  const [r, g, b] = hslToRgb(hue / 360, 0.55, 0.5);
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0 (none), then RGB triples
    for (let x = 0; x < size; x++) {
      const t = variant === 'start' ? (x + y) / (2 * size) : (2 * size - x - y) / (2 * size);
      const stripe = (x >> 3) % 2 === (y >> 3) % 2 ? 1 : 0.8;
      row[1 + x * 3] = Math.round(r * t * stripe + 255 * (1 - t) * 0.2);
      row[2 + x * 3] = Math.round(g * t * stripe + 255 * (1 - t) * 0.2);
      row[3 + x * 3] = Math.round(b * t * stripe + 255 * (1 - t) * 0.2);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function hslToRgb(h, s, l) {
  const f = (n) => {
    const k = (n + h * 12) % 12;
    const a = s * Math.min(l, 1 - l);
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

// ---- MP4: a one-second test pattern, tinted per exercise, no audio, no metadata ----

function makeMp4(seed, file) {
  const hue = [...seed].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7) % 360;
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x64:rate=10:duration=1',
    '-vf',
    `hue=h=${hue}`,
    '-c:v',
    'libx264',
    '-preset',
    'veryslow',
    '-crf',
    '35',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-map_metadata',
    '-1',
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    '-an',
    file,
  ]);
}

function assertMedia(file, kind) {
  const head = readFileSync(file).subarray(0, 12);
  const ok =
    kind === 'png' ? head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) : head.toString('latin1', 4, 8) === 'ftyp';
  if (!ok) throw new Error(`${file} is not a valid ${kind} file`);
}

// ---- the catalogue ----

function checkCoverage(records) {
  const seen = { category: new Set(), muscle: new Set(), force: new Set(), level: new Set(), mechanic: new Set(), equipment: new Set() };
  for (const r of records) {
    seen.category.add(r.category);
    for (const m of [...r.primaryMuscle, ...r.secondaryMuscle]) seen.muscle.add(m);
    for (const k of ['force', 'level', 'mechanic', 'equipment']) seen[k].add(r[k]);
  }
  const missing = Object.entries(ENUMS).flatMap(([k, values]) => values.filter((v) => !seen[k].has(v)).map((v) => `${k} ${v}`));
  if (missing.length) throw new Error(`sample misses enum values: ${missing.join(', ')}`);
  const ids = new Set(records.map((r) => r.id));
  if (ids.size !== records.length) throw new Error('sample has duplicate ids');
}

const records = EXERCISES.map(({ media, translations, ...e }) => {
  const id = idFromName(e.name);
  return {
    id,
    name: e.name,
    displayName: e.name,
    aliases: e.aliases,
    category: e.category,
    primaryMuscle: e.primaryMuscle,
    secondaryMuscle: e.secondaryMuscle,
    force: e.force,
    level: e.level,
    mechanic: e.mechanic,
    equipment: e.equipment,
    instructions: e.instructions,
    ...(media ? { premiumImages: ['start', 'end'], premiumVideos: ['demo'] } : {}),
    ...(translations ? { translations } : {}),
  };
});
checkCoverage(records);

mkdirSync(SAMPLE, { recursive: true });
writeFileSync(join(SAMPLE, 'exercises.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');

if (force) {
  rmSync(join(SAMPLE, 'images'), { recursive: true, force: true });
  rmSync(join(SAMPLE, 'videos'), { recursive: true, force: true });
}
let made = 0;
for (const r of records) {
  for (const name of r.premiumImages ?? []) {
    const file = join(SAMPLE, 'images', r.id, 'premium', `${name}.png`);
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, makePng(r.id, name));
      made++;
    }
    assertMedia(file, 'png');
  }
  for (const name of r.premiumVideos ?? []) {
    const file = join(SAMPLE, 'videos', r.id, 'premium', `${name}.mp4`);
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      makeMp4(r.id, file);
      made++;
    }
    assertMedia(file, 'mp4');
  }
}
console.log(
  `sample: ${records.length} exercises, ${records.filter((r) => r.translations).length} translated, ${records.filter((r) => r.premiumImages).length} with media (${made} media files made)`,
);
