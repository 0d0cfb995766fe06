/**
 * A running proxy keeps V8's young generation at the size it has at start: under load V8
 * doubled it up to its maximum (32 MB on Node 20, 128 MB on Node 24) and kept it until idle,
 * most of the proxy's RSS growth, while a hit's objects live one turn of the event loop, so a
 * small one costs no measurable CPU (docs/performance.md, "The team proxy under load"). V8 reads
 * its growth factor at each growth; set back when the proxy stops, for a process (a test) that goes on.
 */
import { setFlagsFromString } from 'node:v8';

/** Stops the young generation growing until the returned function is called (V8's default factor, 2, again). */
export function holdYoungGeneration(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => setFlagsFromString('--semi-space-growth-factor=2');
}
