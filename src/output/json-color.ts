/**
 * Colour for JSON on a terminal, as gh and jq do: keys blue, strings green, numbers cyan,
 * true/false/null magenta. The text is JSON as jsonText wrote it (already terminal-safe);
 * colour codes only wrap its tokens, so the data read is the same. Never in a pipe.
 */
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

const paint = (code: number, text: string): string => `\u001b[${code}m${text}\u001b[39m`;

export function colorJson(text: string): string {
  return text.replace(TOKEN, (_m, str: string | undefined, colon: string | undefined, num: string | undefined, lit: string | undefined) => {
    if (str !== undefined) return colon !== undefined ? `${paint(34, str)}${colon}` : paint(32, str);
    if (num !== undefined) return paint(36, num);
    return paint(35, lit!);
  });
}
