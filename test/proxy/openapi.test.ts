/**
 * Every answer of the proxy checked against ../shared/spec/openapi.yaml: for each request, the
 * operation its path matches, the response the spec names for the status, and its JSON schema
 * (ajv; OpenAPI 3.0's `nullable` is an ajv keyword). Media answers are checked for the content
 * type the spec gives. Statuses the spec does not list for an operation (the proxy's own 502
 * and 504, and 429 on media) must still have the spec's Error shape. Skipped when the spec
 * folder is not beside the project.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { startServer, type CatalogueServer } from '../helpers/server.js';
import { ALICE, GUEST, type ProxyFixture, startProxy } from './proxy-helpers.js';

const SPEC = fileURLToPath(new URL('../../../shared/spec/openapi.yaml', import.meta.url));
const haveSpec = existsSync(SPEC);

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
}

describe.skipIf(!haveSpec)('the proxy against the OpenAPI description', () => {
  let spec: { paths: Record<string, { get: Operation }>; components: { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> } };
  let ajv: Ajv;
  let f: ProxyFixture;
  let failing: CatalogueServer;
  let g: ProxyFixture;

  beforeAll(async () => {
    spec = parse(readFileSync(SPEC, 'utf8'));
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(spec, 'spec');
    f = await startProxy({ budget: 12 });
    failing = await startServer({ intercept: (_req, res) => (res.writeHead(500).end(), true) });
    g = await startProxy({ upstream: failing });
  });
  afterAll(async () => {
    await f.stop();
    await g.stop();
    await failing.close();
  });

  /** The spec's path template matching `path`, e.g. /exercise/{exerciseId}. */
  function template(path: string): string {
    const found = Object.keys(spec.paths).find((t) => new RegExp(`^${t.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
    if (!found) throw new Error(`no operation in the spec for ${path}`);
    return found;
  }

  /** The content the spec gives for `status` of the operation; the Error response when the spec lists no such status. */
  function content(path: string, status: number): Record<string, { schema?: unknown }> {
    const declared = spec.paths[template(path)]!.get.responses[String(status)];
    const response = declared?.$ref ? spec.components.responses[declared.$ref.split('/').pop()!] : declared;
    return response?.content ?? spec.components.responses.NotFound!.content!;
  }

  async function check(path: string, key: string): Promise<number> {
    return checkAnswer(path, await f.get(path, key));
  }

  async function checkAnswer(path: string, res: Response): Promise<number> {
    const body = Buffer.from(await res.arrayBuffer());
    const pathOnly = path.split('?')[0]!;
    const media = content(pathOnly, res.status);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    expect(Object.keys(media), `${path} → ${res.status} ${type}`).toContain(type);
    if (type === 'application/json') {
      const schema = media[type]!.schema as { $ref?: string } | undefined;
      const ref = schema?.$ref?.replace(/^#/, 'spec#') ?? 'spec#/components/schemas/Error';
      const validate = ajv.getSchema(ref)!;
      const ok = validate(JSON.parse(body.toString('utf8')));
      expect(ok, `${path} → ${res.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    return res.status;
  }

  test('the schemas are really checked', () => {
    expect(ajv.getSchema('spec#/components/schemas/ExerciseIds')!({ exercises: 'not a list' })).toBe(false);
    expect(ajv.getSchema('spec#/components/schemas/Exercise')!({ name: 'x', level: 'GODLIKE' })).toBe(false);
    expect(ajv.getSchema('spec#/components/schemas/ExerciseIds')!({ exercises: [], pagination: { total: 0, next: null, prev: null } })).toBe(true);
  });

  test('every endpoint, both plans, success and error answers', async () => {
    const statuses = new Set<number>();
    const cases: Array<[string, string]> = [
      ['/exercise/query?primaryMuscle=CHEST', ALICE],
      ['/exercise/query?primaryMuscle=CHEST', GUEST],
      ['/exercise/query?level=NOT_A_LEVEL', ALICE],
      ['/exercise/exerciseIds?limit=25', ALICE],
      ['/exercise/exerciseIds?limit=5&lang=de-DE', GUEST],
      ['/exercise/Barbell_Bench_Press?lang=de-DE', ALICE],
      ['/exercise/Barbell_Bench_Press', GUEST],
      ['/exercise/No_Such_Exercise', ALICE],
      ['/exercise/Push_Up', 'not-a-key'],
      ['/images/Push_Up/premium/start.png', ALICE],
      ['/images/Push_Up/premium/start.png', GUEST],
      ['/videos/Push_Up/premium/demo.mp4', ALICE],
      ['/images/Push_Up/premium/nope.png', ALICE],
    ];
    for (const [path, key] of cases) statuses.add(await check(path, key));
    expect([...statuses].sort()).toEqual([200, 400, 401, 403, 404]);
  });

  test("the proxy's own answers: 429 for its budget, 502 when the upstream fails", async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 14; i++) statuses.add(await check(`/exercise/query?name=n${i}`, ALICE));
    expect(statuses).toContain(429);
    expect(await checkAnswer('/exercise/Plank', await g.get('/exercise/Plank'))).toBe(502);
  });
});
