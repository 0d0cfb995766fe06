/**
 * A checker of the Prometheus text exposition format (version 0.0.4), for the proxy's
 * /-/metrics: promtool is not installed here, so its rules that matter are checked by hand —
 * line shapes, metric and label names, escaped label values, numbers, one TYPE per family
 * before its samples, sample names that fit the family's type, and histogram buckets that
 * grow to the +Inf bucket, which equals _count. Returns the samples, so tests read values.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, where: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`${where}: bad value ${text}`);
  return Number(text);
}

/** The label set `{a="x",b="y"}` starting at `text[0]`; returns the labels and the rest of the line. */
function parseLabels(text: string, where: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  while (text[i] !== '}') {
    const eq = text.indexOf('=', i);
    const name = text.slice(i, eq);
    if (eq === -1 || !LABEL_NAME.test(name) || text[eq + 1] !== '"') throw new Error(`${where}: bad label at ${text.slice(i)}`);
    if (Object.hasOwn(labels, name)) throw new Error(`${where}: label ${name} twice`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`${where}: bad escape \\${next}`);
      } else value += text[j];
    }
    if (j >= text.length) throw new Error(`${where}: unterminated label value`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`${where}: expected , or } after a label`);
  }
  return { labels, rest: text.slice(i + 1) };
}

export function parsePrometheusText(text: string): Sample[] {
  if (!text.endsWith('\n')) throw new Error('the text must end with a newline');
  const types = new Map<string, string>();
  const seen = new Set<string>();
  const samples: Sample[] = [];
  text
    .slice(0, -1)
    .split('\n')
    .forEach((line, n) => {
      const where = `line ${n + 1}`;
      if (line === '') return;
      if (line.startsWith('#')) {
        const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
        if (!m) return; // a comment
        const [, kind, name, rest] = m as unknown as [string, string, string, string];
        if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name ${name}`);
        if (kind === 'TYPE') {
          if (!TYPES.has(rest)) throw new Error(`${where}: bad type ${rest}`);
          if (types.has(name) || seen.has(name)) throw new Error(`${where}: TYPE of ${name} twice or after its samples`);
          types.set(name, rest);
        } else if (/\\[^n\\]/.test(rest)) throw new Error(`${where}: bad escape in HELP`);
        return;
      }
      const nameEnd = line.search(/[{ ]/);
      const name = line.slice(0, nameEnd);
      if (nameEnd === -1 || !METRIC_NAME.test(name)) throw new Error(`${where}: bad sample ${line}`);
      const { labels, rest } = line[nameEnd] === '{' ? parseLabels(line.slice(nameEnd), where) : { labels: {}, rest: line.slice(nameEnd) };
      const fields = rest.trim().split(/ +/);
      if (!rest.startsWith(' ') || fields.length < 1 || fields.length > 2) throw new Error(`${where}: bad value part "${rest}"`);
      if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`${where}: bad timestamp`);
      const family = [...types.keys()].find((f) => (SUFFIXES[types.get(f)!] ?? ['']).some((s) => name === f + s));
      if (family === undefined) throw new Error(`${where}: sample ${name} has no TYPE before it`);
      seen.add(family);
      samples.push({ name, labels, value: parseValue(fields[0]!, where) });
    });
  checkHistograms(samples, types);
  return samples;
}

/** Each histogram series: buckets with `le`, counts that never go down, the +Inf bucket equal to _count. */
function checkHistograms(samples: Sample[], types: Map<string, string>): void {
  for (const [family, type] of types) {
    if (type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of samples.filter((x) => x.name === `${family}_bucket`)) {
      const { le, ...rest } = s.labels;
      if (le === undefined) throw new Error(`${family}_bucket without le`);
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, buckets] of series) {
      const bounds = buckets.map((b) => parseValue(b.labels.le!, family));
      for (let i = 1; i < buckets.length; i++) {
        if (bounds[i]! <= bounds[i - 1]! || buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${family}${key}: buckets out of order`);
      }
      const count = samples.find((x) => x.name === `${family}_count` && JSON.stringify(x.labels) === key);
      if (bounds.at(-1) !== Infinity || count?.value !== buckets.at(-1)!.value) throw new Error(`${family}${key}: the +Inf bucket is not _count`);
    }
  }
}

/** The value of the sample `name` with (at least) `labels`; 0 when there is none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}
