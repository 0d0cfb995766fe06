/**
 * A catalogue directory (docs/design.md, "Catalogue directory") with one exercise and its
 * premium pictures, for the picture tests: each picture given as the PNG's bytes, or as a
 * function that makes the file at the path (a FIFO, a device).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writePictureCatalogue(dir: string, id: string, pictures: Record<string, Buffer | ((path: string) => void)>): string {
  const folder = join(dir, 'images', id, 'premium');
  mkdirSync(folder, { recursive: true });
  for (const [name, picture] of Object.entries(pictures)) {
    const path = join(folder, `${name}.png`);
    if (typeof picture === 'function') picture(path);
    else writeFileSync(path, picture);
  }
  const record = {
    id,
    name: id,
    category: 'STRENGTH',
    primaryMuscle: ['CHEST'],
    equipment: 'BARBELL',
    instructions: ['Look.'],
    premiumImages: Object.keys(pictures),
  };
  writeFileSync(join(dir, 'exercises.jsonl'), `${JSON.stringify(record)}\n`);
  return dir;
}
