/**
 * A running proxy keeps V8's young generation at the size it has when the proxy starts. Under
 * load V8 doubles it whenever enough survives its collections, up to 16 MB a semi-space on
 * Node 20 and 64 MB on Node 24, and gives it back only once the process is idle: most of what
 * the proxy's RSS grew by under load (docs/performance.md, "The team proxy under load"). A
 * cache hit's objects live for one turn of the event loop, so a small young generation costs
 * more frequent but cheap collections: no measurable CPU per answer.
 *
 * V8 reads its growth factor each time it would grow, so it can be changed while running (the
 * semi-space maximum is fixed at start-up); set back when the proxy stops, for a process (a
 * test) that goes on.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's own default (Node 20 to 24): each growth doubles. */
const V8_GROWTH_FACTOR = 2;

/** Stops the young generation growing until the returned function is called. */
export function holdYoungGeneration(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
}
