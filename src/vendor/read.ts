/**
 * read, the hidden-input prompt for `auth login` (src/commands/auth.ts). Used by that one
 * command, at a terminal, when no --with-key is given: it brings readline and a muted
 * output stream, which no other command needs.
 */
export function loadRead(): Promise<typeof import('read')> {
  return import('read');
}
