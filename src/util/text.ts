/** Small wording helpers for messages meant for people. */

/** `1 file`, `3 files`: the count and the noun, plural when the count is not one. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/** The first few items of a list for a message, `a, b, c, …` when there are more. */
export function someOf(items: readonly string[], max = 5): string {
  return `${items.slice(0, max).join(', ')}${items.length > max ? ', …' : ''}`;
}
