/**
 * pngjs, the PNG decoder of the half-block image renderer (src/output/images/blocks.ts:
 * `show --images=blocks` at a terminal with no image protocol). ~45 KB bundled, with zlib;
 * loaded only when an image is drawn that way (test/terminal/lazy-load.test.ts).
 */
export function loadPngjs(): Promise<typeof import('pngjs')> {
  return import('pngjs');
}
