/**
 * The note that the service answered in another language than the one asked for (`--lang
 * fr-FR` against a catalogue with no French falls back to English): said once per run, on
 * stderr, when the command ends — never on stdout, never with --quiet. The languages come
 * from the answers' Content-Language (src/api/client.ts noteLanguage), cache hits included.
 */
import type { Context } from '../context.js';
import { wrap } from './wrap.js';
import { write } from './streams.js';

/** The primary language of a tag, lower-cased: `en` of `en-GB`. */
function primary(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/**
 * Whether an answer in `answered` (a Content-Language value, one tag or a comma list) is in the
 * language asked for: one of its tags has the same primary language (`en-US` asked, `en-GB`
 * answered is English all the same).
 */
export function answersInLanguage(asked: string, answered: string): boolean {
  return answered.split(',').some((tag) => primary(tag) === primary(asked));
}

/** The one line: `Note: the service has no fr-FR text; the answer is in en-GB.` */
export function languageNote(asked: string, answered: string): string {
  return `Note: the service has no ${asked} text; the answer is in ${answered}.`;
}

/**
 * A noteLanguage for the run's API client: remembers the first answer in another language and
 * writes the note when the run ends (after the output, so it never cuts a spinner or a table).
 */
export function languageNoter(ctx: Pick<Context, 'io' | 'globals' | 'onExit'>): (asked: string, answered: string) => void {
  let note: string | undefined;
  ctx.onExit(async () => {
    if (note !== undefined && !ctx.globals.quiet) await write(ctx.io.stderr, `${wrap(note, ctx.io.columns)}\n`);
  });
  return (asked, answered) => {
    if (note === undefined && !answersInLanguage(asked, answered)) note = languageNote(asked, answered);
  };
}
