/**
 * How deeply a parsed JSON value nests, found without recursion. JSON.parse takes any depth,
 * but JSON.stringify and every recursive walk overflow the stack somewhere past ~4,000
 * levels, so an answer nested that deep must be refused as malformed before anything walks it.
 */

/**
 * Deepest nesting of arrays and objects in `value` (a scalar is 0, `[]` and `{}` are 1,
 * `[[1]]` is 2), counting no further than `limit + 1`: the walk stops at the first branch
 * deeper than `limit`, so a hostile answer costs no more than the part of it read.
 */
export function maxDepth(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  // Each entry: a container and its depth. An explicit stack: no recursion, whatever the nesting.
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Deepest nesting an answer of the service may have: exercise data needs 3; unknown fields get room to spare. */
export const MAX_JSON_DEPTH = 64;
