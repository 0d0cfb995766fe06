/**
 * Checks of the global flags together, run once they are parsed and before any command does
 * work: two flags that ask for different things are a usage error, never a silent choice.
 */
import { type GlobalOptions, flagName } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { assertFormatFlags } from '../../output/format-flags.js';

export function assertGlobalFlags(globals: Pick<GlobalOptions, 'json' | 'format' | 'sandbox' | 'baseUrl' | 'catalogue'>): void {
  assertFormatFlags(globals);
  if (!globals.sandbox) return;
  // --sandbox is its own server: another place to send requests (or answer them) contradicts it.
  const other = globals.baseUrl !== undefined ? flagName('baseUrl') : globals.catalogue !== undefined ? flagName('catalogue') : undefined;
  if (other !== undefined) {
    throw new UsageError(`${flagName('sandbox')} and ${other} both say where answers come from; give one of them.`, {
      hint: '--sandbox answers from the built-in sample, in-process; --base-url names a service; --catalogue reads a catalogue directory.',
    });
  }
}
