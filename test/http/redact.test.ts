/**
 * Keeping the key out of what is shown (src/util/text.ts): whole-key redaction that does not
 * mangle text, the mask, and the media error path that used to quote a server's echo of the key.
 */

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { maskSecret, redactorFor } from '../../src/util/text.js';

const redact = (text: string, key: string | undefined): string => redactorFor(key)(text);
import { NetworkError } from '../../src/errors.js';
import { downloadFile } from '../../src/media/download-file.js';
import { closeAll, json, serve, transport } from './local-server.js';
import { tempDir } from '../helpers/temp.js';

afterEach(closeAll);

describe('redact', () => {
  it('a one-letter key: only where it stands alone, never inside words', () => {
    const key = 'k';
    expect(redact('The API key is not valid', key)).toBe('The API key is not valid');
    expect(redact('key k was rejected', key)).toBe('key *** was rejected');
    expect(redact('GET http://h/exercise/query?name=k&limit=2', key)).toBe('GET http://h/exercise/query?name=***&limit=2');
    expect(redact('k', key)).toBe('***');
    expect(redact('(k)', key)).toBe('(***)');
  });

  it('a 9-letter key: wherever it appears, even run into other text', () => {
    const key = 'abcdefghi';
    expect(redact('key abcdefghi is over quota', key)).toBe('key *** is over quota');
    expect(redact('token=xabcdefghiy', key)).toBe('token=x***y');
    expect(redact('The API key is not valid', key)).toBe('The API key is not valid');
    expect(redact('abcdefgh is not the key', key)).toBe('abcdefgh is not the key');
  });

  it('the key as it is written in a URL', () => {
    const key = 'my key/+=1';
    const url = new URL('http://h/x');
    url.searchParams.set('name', key);
    expect(redact(url.href, key)).not.toContain(encodeURIComponent(key));
    expect(redact(url.href, key)).toBe('http://h/x?name=***');
    expect(redact(`/exercise/${encodeURIComponent(key)}`, key)).toBe('/exercise/***');
  });

  it('no key, or no text: unchanged', () => {
    expect(redact('anything', undefined)).toBe('anything');
    expect(redact('anything', '')).toBe('anything');
    expect(redact('', 'k')).toBe('');
  });
});

describe('maskSecret', () => {
  it('shows at most 4 characters, and none of a key shorter than 12', () => {
    expect(maskSecret('abcdefghi')).toBe('*********');
    expect(maskSecret('k')).toBe('*');
    expect(maskSecret('abcdefghijk')).toBe('***********');
    expect(maskSecret('abcdefghijkl')).toBe('ab…kl');
    const long = 'sk_live_0123456789abcdef';
    const shown = maskSecret(long).replace(/[*…]/g, '');
    expect(shown.length).toBeLessThanOrEqual(4);
    expect(long.startsWith(shown.slice(0, 2)) && long.endsWith(shown.slice(2))).toBe(true);
  });
});

describe('server text that echoes the key', () => {
  it('is redacted on the media path as on the JSON path', async () => {
    const key = 'secret-key-123';
    const { url } = await serve((req, res) => json(res, 503, { error: { code: 'x', message: `key ${String(req.headers['x-api-key'])} is over quota` } }));
    const t = transport({ baseUrl: url, apiKey: key, settings: { retries: 0 } });

    const jsonErr = await t.getJson('/x').catch((e: unknown) => e);
    const mediaErr = await downloadFile({ kind: 'image', url: new URL('/images/a/premium/b.png', url), what: 'image "b"' }, join(tempDir('redact-'), 'b.png'), {
      transport: t,
      settings: { retries: 0 },
    }).catch((e: unknown) => e);
    for (const err of [jsonErr, mediaErr]) {
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as Error).message).toContain('key *** is over quota');
      expect(JSON.stringify({ message: (err as Error).message, details: (err as NetworkError).details })).not.toContain(key);
    }
  });
});
