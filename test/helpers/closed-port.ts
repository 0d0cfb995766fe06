/**
 * A 127.0.0.1 port nothing listens on, for the tests of a refused connection. A fixed port
 * below the ephemeral range (32768 and up here), never one bound and closed: a port freed by
 * a probe can be taken by another test file's server (files run side by side) before the
 * refused requests go out, and those requests then reach that server: the refused test sees an
 * answer and the other file's test sees requests it never sent.
 */
import { connect } from 'node:net';

const CLOSED_PORT = 9; // discard: no service of the suite's, nor of a development machine's, listens there

/** CLOSED_PORT, once shown closed (a connection to it is refused); throws when something listens there. */
export async function closedPort(): Promise<number> {
  const open = await new Promise<boolean>((resolve) => {
    const socket = connect(CLOSED_PORT, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (open) throw new Error(`127.0.0.1:${CLOSED_PORT} accepts connections on this machine; the refused-connection tests need it closed.`);
  return CLOSED_PORT;
}
