/** ApiClient.mediaUrl with ids and entries that come from the network. */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { MalformedResponseError } from '../../src/errors.js';
import { Transport } from '../../src/http/transport.js';
import { mediaFileName } from '../../src/media/media-names.js';

const api = new ApiClient({
  baseUrl: 'https://api.example.com/v1',
  transport: async () => new Transport({ baseUrl: 'https://api.example.com/v1', settings: { timeout: 1000, retries: 0 } }),
});

describe('mediaUrl', () => {
  it('an id of "." or ".." (which no URL path can carry) is malformed data, not a usage error', () => {
    for (const id of ['.', '..']) {
      expect(() => api.mediaUrl('image', id, 'start')).toThrow(MalformedResponseError);
    }
  });
});

describe('absolute media URLs', () => {
  it('an entry with any scheme is a URL both for its file name and for its fetch; only http(s) can be fetched', () => {
    expect(mediaFileName('image', 'ftp://cdn.example.net/a.png')).toBe('a.png');
    expect(() => api.mediaUrl('image', 'x', 'ftp://cdn.example.net/a.png')).toThrow(MalformedResponseError);
    expect(() => api.mediaUrl('image', 'x', 'http://')).toThrow(MalformedResponseError);
    expect(api.mediaUrl('image', 'x', 'HTTPS://cdn.example.net/a.png').href).toBe('https://cdn.example.net/a.png');
    expect(mediaFileName('image', 'HTTPS://cdn.example.net/a.png')).toBe('a.png');
  });
});
