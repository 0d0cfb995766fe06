/** Fault injection for the catalogue server's `intercept` hook, shared by the test suites. */
import type { ServerResponse } from 'node:http';

/**
 * Lets the real server answer, but cuts the connection once `limit` body bytes have gone out,
 * as a connection dropped mid-body would. The bytes before the cut reach the client first.
 */
export function cutResponseAfter(res: ServerResponse, limit: number): void {
  let sent = 0;
  const write = res.write.bind(res) as (chunk: Buffer, ...rest: unknown[]) => boolean;
  (res as unknown as { write: typeof write }).write = (chunk: Buffer, ...rest: unknown[]) => {
    if (sent + chunk.length >= limit) {
      write(chunk.subarray(0, limit - sent), () => setTimeout(() => res.socket?.destroy(), 30));
      sent = limit;
      return false;
    }
    sent += chunk.length;
    return write(chunk, ...rest);
  };
}
