/**
 * Which way a terminal can show a picture, from how it announces itself: kitty (and Ghostty) the kitty
 * protocol, iTerm2 and WezTerm iTerm2's, any other colour terminal half blocks. Inside tmux or screen,
 * half blocks unless forced (`--images=kitty|iterm|blocks`).
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
