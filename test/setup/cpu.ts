/**
 * With EXERCISES_TEST_CPU_LOG=<file>, each test file appends one JSON line there: the CPU its
 * worker spent on it (imports, hooks, tests) and the CPU of the child processes it waited for
 * (the built CLI, npm, groff, bash), in ms. On a shared machine wall time says how busy the
 * other programs were; CPU time says what a file costs (docs/development.md, "Tests").
 * Not counted: vitest's main process (transforms, reporting) and daemons such as tmux servers.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

const LOG = process.env.EXERCISES_TEST_CPU_LOG;

/** This process's own and its reaped children's CPU so far, in ms (/proc/self/stat, in clock ticks of 10 ms). */
function cpuNow(): { self: number; children: number } {
  // Fields after the command name's closing parenthesis: utime is the 12th, then stime, cutime, cstime.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = (i: number): number => Number(fields[i]) * 10;
  return { self: tick(11) + tick(12), children: tick(13) + tick(14) };
}

if (LOG) {
  // Setup files run again for every test file, so this is the file's start, before its imports.
  const start = cpuNow();
  const started = performance.now();
  afterAll((suite) => {
    const end = cpuNow();
    const file = 'filepath' in suite ? suite.filepath : suite.file.filepath;
    appendFileSync(
      LOG,
      `${JSON.stringify({ file, selfMs: end.self - start.self, childrenMs: end.children - start.children, wallMs: Math.round(performance.now() - started), pid: process.pid, workerSelfMs: end.self, workerChildrenMs: end.children })}\n`,
    );
  });
}
