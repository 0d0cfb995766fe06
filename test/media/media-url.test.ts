/** ApiClient.mediaUrl with ids and entries that come from the network. */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { MalformedResponseError } from '../../src/errors.js';
import { Transport } from '../../src/http/transport.js';

const api = new ApiClient(new Transport({ baseUrl: 'https://api.example.com/v1', timeoutMs: 1000, retries: 0 }));

describe('mediaUrl', () => {
  it('an id of "." or ".." (which no URL path can carry) is malformed data, not a usage error', () => {
    for (const id of ['.', '..']) {
      expect(() => api.mediaUrl('image', id, 'start')).toThrow(MalformedResponseError);
    }
  });
});
