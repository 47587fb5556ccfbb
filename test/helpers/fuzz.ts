import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_MESSAGE_LENGTH } from '../../src/rest/errors.ts';
import { MAX_LINK_HEADER } from '../../src/rest/pagination.ts';
import type { TestApp } from './app.ts';

// A bounded REST fuzzer driven by the OpenAPI document: every operation, its declared path, query and body
// parameters filled with ordinary and hostile values, as anonymous callers, users, admins and bad
// credentials. Each answer must be below 500, errors in Gitea's `{"message","url"}` shape, without internals.

/** The parts of the OpenAPI document the fuzzer reads. */
interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  nullable?: boolean;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: JsonSchema;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
/** An OpenAPI 3.0 document, as far as the fuzzer reads it. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** One generated request. */
export interface FuzzRequest {
  operationId: string;
  method: string;
  url: string;
  actor: string;
  headers: Record<string, string>;
  payload?: string;
}

/** What a run saw. */
export interface FuzzReport {
  requests: number;
  statuses: Record<number, number>;
  fiveHundreds: number;
  violations: string[];
  ms: number;
}

/** The seeded world the generated requests name, and the credentials of its actors. */
export interface FuzzWorld {
  actors: Record<string, Record<string, string>>;
  /** Path parameter values by parameter name. */
  names: Record<string, string[]>;
  /** Existing repositories, as [owner, repo]. */
  repositories: [string, string][];
  /** Per operation: destructive ones name scratch fixtures, so the run does not delete its own world early. */
  operationNames: Record<string, Record<string, string[]>>;
}

/** Values that break naive parsers: overflowing numbers, NUL, dot segments, encodings, markup, very long text. */
const HOSTILE = [
  '',
  ' ',
  '0',
  '-1',
  '+1',
  '1.5',
  '1e309',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '99999999999999999999',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  '4294967296',
  '\u0000',
  'a\u0000b',
  '..',
  '../..',
  '.',
  '/',
  'a/b',
  '\\',
  '%',
  '%00',
  '%zz',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE "User"; --',
  '${jndi:ldap://x}',
  '☃',
  '𝒳\u202e',
  '\r\nX-Injected: 1',
  'x'.repeat(300),
  'y'.repeat(4096),
  'z'.repeat(10_240),
];

/** Path segments sent as written (not URL-encoded): bad escapes, encoded NUL and slashes, dot segments. */
const RAW_SEGMENTS = ['%zz', '%', '%00', 'a%00b', '%2e%2e', '..%2F..', 'a%2F..%2F..%2Fsecret_key', '%2F', '%C0%AE', 'x'.repeat(600)];

const HOSTILE_NUMBERS = [0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER];

const hostileString = fc.constantFrom(...HOSTILE);

function resolve(doc: OpenApiDoc, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 5 && (s.$ref || s.allOf?.length === 1); i++) {
    if (s.$ref) s = doc.components.schemas[s.$ref.replace('#/components/schemas/', '')] ?? {};
    else if (s.allOf?.[0]) s = { ...s.allOf[0], nullable: s.nullable };
  }
  return s;
}

/** A JSON value for `schema`: usually of the right type, sometimes hostile or of another type. */
function jsonValue(doc: OpenApiDoc, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  const wrong = fc.oneof(
    hostileString,
    fc.constantFrom<unknown>(...HOSTILE_NUMBERS, true, false, null, [], {}, [1, 'a'], { nested: { deep: [null] } }),
  );
  let right: fc.Arbitrary<unknown>;
  if (s.enum) right = fc.constantFrom(...s.enum);
  else if (s.oneOf?.length) right = fc.oneof(...s.oneOf.map((o) => jsonValue(doc, o, depth)));
  else if (s.type === 'integer') right = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(...HOSTILE_NUMBERS));
  else if (s.type === 'boolean') right = fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 'on', '1'));
  else if (s.type === 'string' && s.format === 'date-time')
    right = fc.oneof(fc.constant('2024-02-29T12:00:00Z'), fc.constant('2024-13-45T99:99:99+25:00'), hostileString);
  else if (s.type === 'string')
    right = fc.oneof(fc.constantFrom('main', 'fuzzuser', 'victim', 'README.md', '#00aabb', 'title'), hostileString);
  else if (s.type === 'array') right = depth > 2 ? fc.constant([]) : fc.array(jsonValue(doc, s.items ?? {}, depth + 1), { maxLength: 3 });
  else if (s.type === 'object' || s.properties) right = depth > 2 ? fc.constant({}) : jsonObject(doc, s, depth + 1);
  else right = wrong;
  return fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

/** Fields most bodies need to succeed: sent more often than the others. */
const USUAL_FIELDS = new Set([
  'title',
  'name',
  'body',
  'content',
  'username',
  'email',
  'color',
  'head',
  'base',
  'time',
  'key',
  'emails',
  'do',
  'Do',
]);

function jsonObject(doc: OpenApiDoc, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries(schema.properties ?? {});
  const field = (name: string, p: JsonSchema) =>
    fc.oneof(
      { weight: USUAL_FIELDS.has(name) ? 1 : 3, arbitrary: fc.constant(undefined) },
      { weight: USUAL_FIELDS.has(name) ? 4 : 1, arbitrary: jsonValue(doc, p, depth) },
    );
  const record = fc
    .record(Object.fromEntries(props.map(([name, p]) => [name, field(name, p)])))
    .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
  return fc.oneof({ weight: 9, arbitrary: record }, { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) });
}

/** A request body: mostly JSON of the schema, sometimes malformed, mistyped or in another encoding. */
function bodyOf(doc: OpenApiDoc, op: Operation): fc.Arbitrary<{ payload?: string; contentType?: string }> {
  const schema = op.requestBody?.content['application/json']?.schema;
  const json = schema ? jsonObject(doc, resolve(doc, schema), 0) : fc.constant({});
  const encoded = json.map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' }));
  const odd = fc.constantFrom(
    { payload: '{"unterminated": [', contentType: 'application/json' },
    { payload: 'null', contentType: 'application/json' },
    { payload: '[1,2,3]', contentType: 'application/json' },
    { payload: '"text"', contentType: 'application/json' },
    { payload: '{"a":1}', contentType: 'text/plain' },
    { payload: 'name=x&color=%00&name=y', contentType: 'application/x-www-form-urlencoded' },
    { payload: '\u0000\u0001binary', contentType: 'application/octet-stream' },
    {
      payload: JSON.stringify({ name: 'big', title: 'big', color: `#${'f'.repeat(1024 * 1024)}`, body: 'b'.repeat(64 * 1024) }),
      contentType: 'application/json',
    },
    {},
  );
  return op.requestBody
    ? fc.oneof({ weight: 6, arbitrary: encoded }, { weight: 1, arbitrary: odd })
    : fc.oneof({ weight: 9, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: odd });
}

/** A query parameter value (a string, or several for a repeated parameter). */
function queryValue(schema: JsonSchema): fc.Arbitrary<string[]> {
  const one: fc.Arbitrary<string> =
    schema.type === 'integer'
      ? fc.oneof(fc.constantFrom('1', '2', '50', '0'), hostileString)
      : schema.type === 'boolean'
        ? fc.oneof(fc.constantFrom('true', 'false', '1', '0', 'yes'), hostileString)
        : schema.enum
          ? fc.oneof(fc.constantFrom(...schema.enum.map(String)), hostileString)
          : schema.format === 'date-time'
            ? fc.oneof(fc.constantFrom('2020-01-01T00:00:00Z', '2999-12-31T23:59:59+14:00', 'yesterday'), hostileString)
            : fc.oneof(fc.constantFrom('a', 'fuzz', 'main'), hostileString);
  return fc.array(one, { minLength: 1, maxLength: schema.type === 'array' ? 3 : 2 });
}

/** Generates `count` requests over every operation of `doc`, deterministically from `seed`. */
export function fuzzRequests(doc: OpenApiDoc, world: FuzzWorld, opts: { seed: number; count: number }): FuzzRequest[] {
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  const actorNames = Object.keys(world.actors);
  const request = ({ path, method, op }: (typeof operations)[number]) => {
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const names = { ...world.names, ...world.operationNames[op.operationId] };
    const segment = (name: string) =>
      fc.oneof(
        { weight: 16, arbitrary: fc.constantFrom(...(names[name] ?? ['1'])).map(encodeURIComponent) },
        { weight: 2, arbitrary: hostileString.map(encodeURIComponent) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
      );
    // A repository path names an existing repository most of the time, so deeper paths get past the lookup.
    const ownerAt = pathParams.findIndex((p) => p.name === 'owner');
    const repoAt = pathParams.findIndex((p) => p.name === 'repo');
    const segments = fc.tuple(...pathParams.map((p) => segment(p.name)));
    const paired =
      ownerAt >= 0 && repoAt >= 0 && !world.operationNames[op.operationId]
        ? fc
            .tuple(segments, fc.constantFrom(...world.repositories))
            .map(([all, [owner, repo]]) => all.map((v, i) => (i === ownerAt ? owner : i === repoAt ? repo : v)))
        : segments;
    return fc
      .record({
        actor: fc.constantFrom(...actorNames),
        segments: fc.oneof({ weight: 3, arbitrary: paired }, { weight: 1, arbitrary: segments }),
        query: fc
          .subarray(queryParams)
          .chain((chosen) => fc.tuple(...chosen.map((p) => queryValue(p.schema).map((v) => [p.name, v] as const)))),
        extraQuery: fc.oneof(
          { weight: 12, arbitrary: fc.constant(null) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              'page=99999999999999999999',
              'limit=-1',
              'unknown=1',
              'token=wrong',
              'sudo=victim',
              `q=${'q'.repeat(10_240)}`,
            ),
          },
        ),
        body: bodyOf(doc, op),
      })
      .map(({ actor, segments, query, extraQuery, body }): FuzzRequest => {
        let i = 0;
        const filled = path.replace(/\{\w+\}/g, () => segments[i++] ?? 'x');
        const search = new URLSearchParams();
        for (const [name, values] of query) for (const v of values) search.append(name, v);
        const qs = [search.toString(), extraQuery ?? ''].filter(Boolean).join('&');
        const headers = { ...(world.actors[actor] ?? {}), ...(body.contentType ? { 'content-type': body.contentType } : {}) };
        return {
          operationId: op.operationId,
          method: method.toUpperCase(),
          url: `/api/v1${filled}${qs ? `?${qs}` : ''}`,
          actor,
          headers,
          ...(body.payload !== undefined ? { payload: body.payload } : {}),
        };
      });
  };
  // Every operation gets its share (a run of a few requests per operation reaches each one; drawn at random, 2,000
  // requests missed ~1% of them and 1,000 ~11%), each request drawn from the seed, then all shuffled with it.
  // Unbiased: fast-check's bias towards small values would skew the weights chosen above.
  const share = Math.ceil(opts.count / operations.length);
  const drawn = operations.map((o, k) => fc.sample(fc.noBias(request(o)), { seed: opts.seed + k, numRuns: share }));
  const requests = Array.from({ length: opts.count }, (_, i) => drawn[i % operations.length]?.[Math.floor(i / operations.length)]);
  const [order = []] = fc.sample(fc.shuffledSubarray(requests, { minLength: requests.length }), { seed: opts.seed, numRuns: 1 });
  return order.filter((r): r is FuzzRequest => r !== undefined);
}

/** What is wrong with one answer (empty when nothing). */
export function checkAnswer(t: TestApp, req: FuzzRequest, res: LightMyRequestResponse): string[] {
  const where = `${req.method} ${req.url.slice(0, 160)} as ${req.actor} → ${res.statusCode}`;
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`5xx: ${where}: ${res.body.slice(0, 300)}`);
  if (res.body.includes(t.config.dataDir)) problems.push(`data path leaked: ${where}`);
  const link = res.headers.link;
  if (typeof link === 'string' && link.length > MAX_LINK_HEADER) problems.push(`Link header of ${link.length} bytes: ${where}`);
  if (res.statusCode < 400 || res.body === '') return problems;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [...problems, `error body is not JSON: ${where}: ${res.body.slice(0, 200)}`];
  }
  const shape = body as { message?: unknown; url?: unknown };
  const keys = typeof body === 'object' && body !== null ? Object.keys(body) : [];
  const giteaShape =
    typeof shape.message === 'string' &&
    // Gitea's topic handlers add the refused names: {"invalidTopics": [...], "message": ...}.
    keys.every((k) => k === 'message' || k === 'url' || (k === 'invalidTopics' && /\/topics(\/|\?|$)/.test(req.url))) &&
    (shape.url === undefined || shape.url === `${t.config.rootUrl}api/swagger`);
  if (!giteaShape) problems.push(`not Gitea's error shape: ${where}: ${res.body.slice(0, 200)}`);
  if (typeof shape.message === 'string') {
    if (shape.message.length > MAX_MESSAGE_LENGTH + 1) problems.push(`message of ${shape.message.length} characters: ${where}`);
    for (const needle of ['prisma', 'Invalid `', 'node_modules', '    at ', 'ENOENT']) {
      if (shape.message.toLowerCase().includes(needle.toLowerCase()))
        problems.push(`internal text "${needle}": ${where}: ${shape.message.slice(0, 200)}`);
    }
  }
  return problems;
}

/** Sends the requests one after another (app.inject) and checks every answer. */
export async function runFuzz(t: TestApp, requests: FuzzRequest[]): Promise<FuzzReport> {
  const started = performance.now();
  const statuses: Record<number, number> = {};
  const violations: string[] = [];
  for (const req of requests) {
    const res = await t.app.server.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    });
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    violations.push(...checkAnswer(t, req, res));
  }
  const fiveHundreds = Object.entries(statuses)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, c]) => n + c, 0);
  return { requests: requests.length, statuses, fiveHundreds, violations, ms: performance.now() - started };
}
