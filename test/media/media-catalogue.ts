/**
 * A small catalogue directory of generated media for the media tests: valid PNG / MP4 heads
 * followed by random bytes, laid out as docs/design.md "Catalogue directory" says.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);

export function pngBytes(size: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, randomBytes(Math.max(0, size - PNG_SIGNATURE.length))]);
}

export function mp4Bytes(size: number): Buffer {
  return Buffer.concat([MP4_HEAD, randomBytes(Math.max(0, size - MP4_HEAD.length))]);
}

export interface MediaExercise {
  id: string;
  name: string;
  images?: Record<string, number>;
  videos?: Record<string, number>;
  /** Entries listed in the record (default: the keys of images / videos). */
  premiumImages?: string[];
  premiumVideos?: string[];
}

export interface MediaCatalogue {
  dir: string;
  file(kind: 'image' | 'video', id: string, name: string): string;
}

export function makeMediaCatalogue(exercises: MediaExercise[]): MediaCatalogue {
  const dir = tempDir('media-catalogue-');
  const lines: string[] = [];
  for (const ex of exercises) {
    for (const [name, size] of Object.entries(ex.images ?? {})) {
      mkdirSync(join(dir, 'images', ex.id, 'premium'), { recursive: true });
      writeFileSync(join(dir, 'images', ex.id, 'premium', `${name}.png`), pngBytes(size));
    }
    for (const [name, size] of Object.entries(ex.videos ?? {})) {
      mkdirSync(join(dir, 'videos', ex.id, 'premium'), { recursive: true });
      writeFileSync(join(dir, 'videos', ex.id, 'premium', `${name}.mp4`), mp4Bytes(size));
    }
    lines.push(
      JSON.stringify({
        id: ex.id,
        name: ex.name,
        category: 'STRENGTH',
        primaryMuscle: ['CHEST'],
        premiumImages: ex.premiumImages ?? Object.keys(ex.images ?? {}),
        premiumVideos: ex.premiumVideos ?? Object.keys(ex.videos ?? {}),
      }),
    );
  }
  writeFileSync(join(dir, 'exercises.jsonl'), `${lines.join('\n')}\n`);
  return {
    dir,
    file: (kind, id, name) => join(dir, kind === 'image' ? 'images' : 'videos', id, 'premium', `${name}${kind === 'image' ? '.png' : '.mp4'}`),
  };
}
