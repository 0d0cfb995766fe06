/**
 * @inquirer/search, the fuzzy picker at a terminal (src/prompt/pick.ts: `show` with no id,
 * `query --pick`). Loaded only when a picker opens: ~85 KB bundled (3.x, whose engines cover Node 20), with readline and
 * @inquirer/core's rendering, which pipes and scripts never need (test/terminal/lazy-load.test.ts).
 */
export function loadInquirerSearch(): Promise<typeof import('@inquirer/search')> {
  return import('@inquirer/search');
}
