/**
 * Which way a terminal can show a picture, read from its environment as terminals announce
 * themselves: kitty (KITTY_WINDOW_ID, TERM=xterm-kitty; Ghostty speaks its protocol too) gets
 * the kitty graphics protocol; iTerm2 (TERM_PROGRAM=iTerm.app, LC_TERMINAL=iTerm2) and WezTerm
 * the iTerm2 inline-image protocol; any other colour terminal half blocks (index.ts). Inside
 * tmux or screen the escape protocols would need passthrough, so half blocks there unless
 * forced (`--images=kitty|iterm|blocks`).
 */
import type { Env } from '../../context.js';

export const IMAGE_PROTOCOLS = ['kitty', 'iterm', 'blocks'] as const;
export type ImageProtocol = (typeof IMAGE_PROTOCOLS)[number];

export function detectImageProtocol(env: Env): ImageProtocol {
  const term = env.TERM ?? '';
  const program = env.TERM_PROGRAM ?? '';
  const multiplexed = env.TMUX !== undefined || /^(screen|tmux)/.test(term);
  if (multiplexed) return 'blocks';
  if (env.KITTY_WINDOW_ID !== undefined || term === 'xterm-kitty' || program === 'ghostty' || term === 'xterm-ghostty') return 'kitty';
  if (program === 'iTerm.app' || env.LC_TERMINAL === 'iTerm2' || program === 'WezTerm') return 'iterm';
  return 'blocks';
}
