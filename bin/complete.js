// `exercises __complete …`: the answer to one TAB of the scripts `exercises completion`
// prints. Loaded by bin/exercises.js before (and instead of) the CLI: it runs its own small
// bundle (dist/bundle/complete.cjs, built with dist/completion.json by
// scripts/completion-data.mjs), or the plain tsc output when no bundle was built.
'use strict';

const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
const files = { dataFile: path.join(dist, 'completion.json'), sampleDir: path.join(__dirname, '..', 'sample') };

module.exports = function complete(args) {
  let fastPath;
  try {
    fastPath = require(path.join(dist, 'bundle', 'complete.cjs'));
  } catch (err) {
    if (err?.code !== 'MODULE_NOT_FOUND') throw err;
  }
  if (fastPath) fastPath.main(args, files);
  else import('../dist/completion/fast-path.js').then((plain) => plain.main(args, files));
};
