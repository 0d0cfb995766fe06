/**
 * string-width, terminal display width of text that is not plain Latin (src/output/width.ts).
 * Loaded with the table and record layouts that fit text to the terminal: at load it builds
 * an Intl.Segmenter and Unicode-property regular expressions (the RGI emoji set among them),
 * which pipes and JSON output never need.
 */
export function loadStringWidth(): Promise<typeof import('string-width')> {
  return import('string-width');
}
