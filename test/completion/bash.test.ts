/**
 * The generated bash completion, driven as bash drives it: COMP_WORDS and COMP_CWORD set,
 * the `_exercises` function called in a real bash, COMPREPLY checked. Each TAB runs the
 * built CLI's `__complete` fast path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendIdIndex } from '../../src/completion/id-index.js';
import { CONFIG_KEYS } from '../../src/config/settings.js';
import { type CatalogueServer, PREMIUM_KEY, startServer } from '../helpers/server.js';
import { bashComplete, catalogueDir, type ShellEnv, shellEnv } from './shell-driver.js';

let bash: ShellEnv;
beforeAll(async () => {
  bash = await shellEnv('bash');
});

describe('commands and subcommands', () => {
  it('offers every command after the program name', () => {
    const reply = bashComplete(bash, { words: ['exercises', ''] });
    expect(reply).toEqual(expect.arrayContaining(['query', 'ids', 'show', 'image', 'video', 'download', 'auth', 'config', 'serve', 'completion', 'help']));
  });

  it('narrows commands by prefix, also after global flags and their values', () => {
    expect(bashComplete(bash, { words: ['exercises', 'do'] })).toEqual(['download']);
    expect(bashComplete(bash, { words: ['exercises', '--format', 'json', '-q', 'sh'] })).toEqual(['show']);
    // bash splits `--base-url http://127.0.0.1:9` at the colons; the value is still skipped.
    expect(bashComplete(bash, { words: ['exercises', '--base-url', 'http', ':', '//127.0.0.1', ':', '9', 'i'] })).toEqual(['ids', 'image']);
  });

  it('offers the subcommands of auth and config', () => {
    // commander gives each a `help` subcommand too.
    expect(bashComplete(bash, { words: ['exercises', 'auth', ''] }).sort()).toEqual(['help', 'login', 'logout', 'status']);
    expect(bashComplete(bash, { words: ['exercises', 'config', ''] }).sort()).toEqual(['get', 'help', 'list', 'path', 'set', 'unset']);
    expect(bashComplete(bash, { words: ['exercises', 'config', 'help', 'u'] })).toEqual(['unset']);
    expect(bashComplete(bash, { words: ['exercises', 'auth', 'lo'] }).sort()).toEqual(['login', 'logout']);
  });

  it('offers command names after help, and the shells after completion', () => {
    expect(bashComplete(bash, { words: ['exercises', 'help', 'co'] }).sort()).toEqual(['completion', 'config']);
    expect(bashComplete(bash, { words: ['exercises', 'completion', ''] })).toEqual(['bash', 'zsh', 'fish']);
  });
});

describe('flags', () => {
  it("offers a command's own flags and the global ones", () => {
    const reply = bashComplete(bash, { words: ['exercises', 'download', '--'] });
    expect(reply).toEqual(expect.arrayContaining(['--dir', '--concurrency', '--dry-run', '--muscle', '--equipment', '--format', '--quiet', '--help']));
    expect(reply).not.toContain('--output'); // image and video only
    expect(bashComplete(bash, { words: ['exercises', 'query', '--mu'] })).toEqual(['--muscle']);
  });

  it('offers short flags too after a single dash', () => {
    const reply = bashComplete(bash, { words: ['exercises', 'image', 'Plank', '-'] });
    expect(reply).toEqual(expect.arrayContaining(['-o', '--output', '-v', '-q', '-h']));
  });

  it('offers the global flags before any command', () => {
    expect(bashComplete(bash, { words: ['exercises', '--ver'] })).toEqual(['--version', '--verbose']);
  });

  it('offers flags of auth login', () => {
    expect(bashComplete(bash, { words: ['exercises', 'auth', 'login', '--'] })).toEqual(expect.arrayContaining(['--with-key', '--verify']));
  });
});

describe('enum values and choices', () => {
  it('offers enum values in their friendly spelling', () => {
    expect(bashComplete(bash, { words: ['exercises', 'query', '--muscle', 'ch'] })).toEqual(['chest']);
    expect(bashComplete(bash, { words: ['exercises', 'query', '--level', ''] })).toEqual(['beginner', 'intermediate', 'expert']);
    expect(bashComplete(bash, { words: ['exercises', 'download', '--secondary-muscle', 'LAT'] })).toEqual(['lats']);
  });

  it('quotes a value with a space for the line it goes on', () => {
    expect(bashComplete(bash, { words: ['exercises', 'query', '--muscle', 'lower'] })).toEqual(['lower\\ back']);
    expect(bashComplete(bash, { words: ['exercises', 'query', '--equipment', 'ez'] })).toEqual(['ez\\ curl\\ bar']);
    // Inside a quote the user opened, readline replaces the text after it: no backslashes.
    expect(bashComplete(bash, { words: ['exercises', 'query', '--muscle', '"lower b'] })).toEqual(['lower back']);
    expect(bashComplete(bash, { words: ['exercises', 'query', '--muscle', "'middle"] })).toEqual(['middle back']);
    // Typed with a backslash already.
    expect(bashComplete(bash, { words: ['exercises', 'query', '--muscle', 'lower\\ '] })).toEqual(['lower\\ back']);
  });

  it('completes --flag=value, which bash splits at the =', () => {
    expect(bashComplete(bash, { words: ['exercises', 'query', '--muscle', '=', 'ch'] })).toEqual(['chest']);
    expect(bashComplete(bash, { words: ['exercises', 'query', '--format', '='] })).toEqual(['table', 'json', 'jsonl', 'csv', 'tsv']);
  });

  it('completes the last entry of a comma list', () => {
    expect(bashComplete(bash, { words: ['exercises', 'query', '--category', 'strength,c'] })).toEqual(['strength,cardio']);
  });

  it('offers the choices of --format', () => {
    expect(bashComplete(bash, { words: ['exercises', 'ids', '--format', 'js'] })).toEqual(['json', 'jsonl']);
  });
});

describe('config keys', () => {
  it('offers every key to get and unset, and only the settable ones to set', () => {
    // Every key of the settings table, in its order; `set` leaves out the key stored by `auth login`.
    const keys = CONFIG_KEYS.map((k) => k.name);
    expect(keys).toEqual(expect.arrayContaining(['api-key', 'base-url', 'lang', 'timeout', 'deadline', 'retries', 'budget', 'cache-ttl', 'catalogue']));
    expect(bashComplete(bash, { words: ['exercises', 'config', 'get', ''] })).toEqual(keys);
    expect(bashComplete(bash, { words: ['exercises', 'config', 'unset', 'r'] })).toEqual(['retries']);
    expect(bashComplete(bash, { words: ['exercises', 'config', 'set', ''] })).toEqual(keys.filter((k) => k !== 'api-key'));
    // The value of `config set <key> <value>` is not a key.
    expect(bashComplete(bash, { words: ['exercises', 'config', 'set', 'lang', ''] })).toEqual([]);
  });
});

const RECORDS = [
  { id: 'Barbell_Bench_Press', name: 'Barbell Bench Press', premiumImages: ['start', 'end'], premiumVideos: ['demo'] },
  { id: 'Barbell_Curl', name: 'Barbell Curl', premiumImages: ['top'] },
  { id: 'Plank', name: 'Plank' },
  { id: 'Farmers_Walk', name: "Farmer's Walk" },
];

describe('exercise ids and names from a catalogue directory', () => {
  let dir: string;
  beforeAll(() => {
    dir = catalogueDir(RECORDS);
  });

  it('completes ids (EXERCISES_CATALOGUE), found by id or by name, each exercise once', () => {
    const env = { EXERCISES_CATALOGUE: dir };
    expect(bashComplete(bash, { words: ['exercises', 'show', 'Barbell_'], env })).toEqual(['Barbell_Bench_Press', 'Barbell_Curl']);
    // Never the name beside the id: one candidate per exercise.
    expect(bashComplete(bash, { words: ['exercises', 'show', 'Barbell'], env })).toEqual(['Barbell_Bench_Press', 'Barbell_Curl']);
    // Names in any case, typed with a backslash or in quotes, complete to the id; ids as typed.
    expect(bashComplete(bash, { words: ['exercises', 'show', 'barbell\\ b'], env })).toEqual(['Barbell_Bench_Press']);
    expect(bashComplete(bash, { words: ['exercises', 'show', '"Barbell B'], env })).toEqual(['Barbell_Bench_Press']);
    expect(bashComplete(bash, { words: ['exercises', 'show', 'farm'], env })).toEqual(['Farmers_Walk']);
  });

  it('offers them for show, image, video and download, after other ids too', () => {
    const env = { EXERCISES_CATALOGUE: dir };
    expect(bashComplete(bash, { words: ['exercises', 'show', 'Plank', 'Pl'], env })).toEqual(['Plank']);
    expect(bashComplete(bash, { words: ['exercises', 'video', 'Pl'], env })).toEqual(['Plank']);
    expect(bashComplete(bash, { words: ['exercises', 'download', '--dir', 'media', 'Plank', 'Farm'], env })).toEqual(['Farmers_Walk']);
  });

  it('offers the media names of the exercise given to image and video', () => {
    const env = { EXERCISES_CATALOGUE: dir };
    expect(bashComplete(bash, { words: ['exercises', 'image', 'Barbell_Bench_Press', ''], env })).toEqual(['start', 'end']);
    expect(bashComplete(bash, { words: ['exercises', 'image', 'Barbell_Bench_Press', 'start', ''], env })).toEqual(['end']);
    expect(bashComplete(bash, { words: ['exercises', 'video', '"Barbell Bench Press"', ''], env })).toEqual(['demo']);
  });

  it('uses the catalogue setting of the stored config file', () => {
    const configDir = join(bash.home, 'stored-config');
    mkdirSync(join(configDir, 'exercises'), { recursive: true });
    writeFileSync(join(configDir, 'exercises', 'config.json'), JSON.stringify({ catalogue: dir }));
    expect(bashComplete(bash, { words: ['exercises', 'show', 'Pla'], env: { XDG_CONFIG_HOME: configDir } })).toEqual(['Plank']);
  });

  it('uses the sample catalogue with --sandbox', () => {
    expect(bashComplete(bash, { words: ['exercises', '--sandbox', 'show', 'Push'] })).toEqual(['Push_Up']);
  });

  it('offers nothing, quietly, when no source knows any exercise', () => {
    expect(bashComplete(bash, { words: ['exercises', 'show', ''] })).toEqual([]);
    expect(bashComplete(bash, { words: ['exercises', 'show', ''], env: { EXERCISES_CATALOGUE: join(bash.home, 'missing') } })).toEqual([]);
  });
});

describe('exercise ids and names from the id index of the cache', () => {
  it('offers what the cache layer recorded', () => {
    const cacheHome = join(bash.home, 'index-cache');
    appendIdIndex(join(cacheHome, 'exercises'), [
      { id: 'Dumbbell_Fly', name: 'Dumbbell Fly' },
      { id: 'Dumbbell_Row', name: 'One-Arm Dumbbell Row' },
    ]);
    const env = { XDG_CACHE_HOME: cacheHome };
    expect(bashComplete(bash, { words: ['exercises', 'show', 'Dumb'], env })).toEqual(['Dumbbell_Fly', 'Dumbbell_Row']);
    expect(bashComplete(bash, { words: ['exercises', 'image', 'one-arm'], env })).toEqual(['Dumbbell_Row']);
  });
});

describe('file and directory names', () => {
  it('lists folders for --dir and files for -o, as bash would', () => {
    const cwd = join(bash.home, 'work');
    mkdirSync(join(cwd, 'media'), { recursive: true });
    mkdirSync(join(cwd, 'my media'), { recursive: true });
    writeFileSync(join(cwd, 'media.txt'), '');
    expect(bashComplete(bash, { words: ['exercises', 'download', '--dir', 'med'], cwd })).toEqual(['media']);
    expect(bashComplete(bash, { words: ['exercises', 'download', '--dir', '=', 'my'], cwd })).toEqual(['my media']);
    expect(bashComplete(bash, { words: ['exercises', 'image', 'Plank', '-o', 'med'], cwd }).sort()).toEqual(['media', 'media.txt']);
    expect(bashComplete(bash, { words: ['exercises', 'video', 'Plank', '--output', '"media.'], cwd })).toEqual(['media.txt']);
  });
});

describe('no request on TAB', () => {
  let server: CatalogueServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('completes ids with a service configured and sends it nothing', () => {
    const env = { EXERCISES_BASE_URL: server.url, EXERCISES_API_KEY: PREMIUM_KEY };
    for (const words of [
      ['exercises', 'show', 'P'],
      ['exercises', 'image', 'Push_Up', ''],
      ['exercises', 'download', '--muscle', 'ch'],
      ['exercises', 'ids', '--'],
    ]) {
      bashComplete(bash, { words, env });
    }
    expect(server.requests).toEqual([]);
  });
});
