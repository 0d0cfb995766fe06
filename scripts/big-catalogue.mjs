#!/usr/bin/env node
/**
 * Writes a big catalogue directory for tests and benches: `count` records made from the shipped
 * sample's (or another catalogue's) records, each copy with its own id and name (`Plank 000123`).
 *
 *   node scripts/big-catalogue.mjs <dir> <count> [<source exercises.jsonl>]
 */
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes `<dir>/exercises.jsonl` with `count` records copied round-robin from `source`'s lines. */
export async function writeBigCatalogue(dir, count, source = join(ROOT, 'sample', 'exercises.jsonl')) {
  const records = readFileSync(source, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(join(dir, 'exercises.jsonl'));
  const digits = String(count).length;
  for (let i = 0; i < count; i++) {
    const base = records[i % records.length];
    const n = String(i).padStart(digits, '0');
    const line = `${JSON.stringify({ ...base, id: `${base.id}_${n}`, name: `${base.name} ${n}` })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, count, source] = process.argv.slice(2);
  if (!dir || !/^\d+$/.test(count ?? '')) {
    console.error('usage: node scripts/big-catalogue.mjs <dir> <count> [<source exercises.jsonl>]');
    process.exit(2);
  }
  await writeBigCatalogue(dir, Number(count), source);
}
