/** Reads a dispatched media body (Transport.dispatchStream) to its end, counting bytes; its failure, if any, is returned, not thrown. */
import type { BodySource } from '../../src/http/exchange.js';

export function readDispatched(body: BodySource): Promise<{ bytes: number; error?: unknown }> {
  return new Promise((resolve) => {
    let bytes = 0;
    body.start({
      onData: (chunk) => {
        bytes += chunk.length;
        return true;
      },
      onEnd: () => resolve({ bytes }),
      onError: (error) => resolve({ bytes, error }),
    });
  });
}
