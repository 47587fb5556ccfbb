import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileErrors, validate } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryParamDoc } from '../../src/rest/params.ts';
import { allRoutes } from '../../src/rest/routes/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/** The parts of an OpenAPI 3.0 document these tests read. */
interface Schema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  [key: string]: unknown;
}
interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}
interface Response {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  operationId: string;
  description?: string;
  deprecated?: boolean;
  parameters: Param[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
  security: Record<string, unknown>[];
  'x-token-scopes'?: string[];
}
interface Doc {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Response>; securitySchemes: Record<string, unknown> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every `METHOD /path` of the document, path parameters written `{}`. */
function documentedRoutes(doc: Doc): Set<string> {
  const out = new Set<string>();
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const m of METHODS) if (ops[m]) out.add(`${m.toUpperCase()} ${p.replace(/\{\w+\}/g, '{}')}`);
  }
  return out;
}

/** The operation at `path` and `method`; fails the test when absent. */
function op(path: string, method: (typeof METHODS)[number]): Operation {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`no ${method} ${path} in the document`);
  return found;
}

const param = (o: Operation, name: string): Param => {
  const found = o.parameters.find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name} in ${o.operationId}`);
  return found;
};

/** A component schema's property. */
const prop = (schema: string, name: string): Schema | undefined => doc.components.schemas[schema]?.properties?.[name];

/** The JSON body schema of a response or request body. */
const jsonSchema = (part: Response | Operation['requestBody']): Schema | undefined => part?.content?.['application/json']?.schema;

/**
 * Every route Fastify serves under /api/v1, read from its route tree (`printRoutes`), path parameters
 * (`:name`, `:a|:b`, the wildcard `*`) written `{}`; HEAD is Fastify's automatic twin of GET.
 */
function servedRoutes(tree: string): Set<string> {
  const out = new Set<string>();
  const stack: { depth: number; prefix: string }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?) \(([A-Z, ]+)\)$/.exec(line) ?? /^([│ ]*)[├└]── (.*)$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    while (stack.length && (stack.at(-1)?.depth ?? 0) >= depth) stack.pop();
    const full = (stack.at(-1)?.prefix ?? '') + (m[2] ?? '');
    stack.push({ depth, prefix: full });
    if (!m[3] || !full.startsWith('/api/v1/')) continue;
    const normalized = full
      .slice('/api/v1'.length)
      // The tree prints a wildcard under its static prefix without the slash (`/contents` → `*`).
      .replace(/([^/])\*$/, '$1/*')
      .replace(/:\w+(\|:\w+)*/g, '{}')
      .replace(/\*/g, '{}');
    for (const method of m[3].split(', ')) if (method !== 'HEAD') out.add(`${method} ${normalized}`);
  }
  return out;
}

const srcRoot = path.resolve(import.meta.dirname, '../../src/rest/routes');
const routeSources = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? routeSources(p) : [p];
  });

let doc: Doc;
let generated: string;
let workDir: string;

beforeAll(async () => {
  const t = await startTestApp('sqlite');
  doc = (await t.request('GET', '/swagger.v1.json')).json();
  await t.close();
  generated = astToString(await openapiTS(doc as never));
  workDir = mkdtempSync(path.join(tmpdir(), 'forgegraph-openapi-'));
  writeFileSync(path.join(workDir, 'schema.d.ts'), generated);
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.0 document (@readme/openapi-parser)', async () => {
    expect(doc.openapi).toBe('3.0.3');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.warnings).toEqual([]);
  });

  it('documents every route Fastify serves under /api/v1, and nothing else', async () => {
    const t = await startTestApp('sqlite');
    // With common prefixes: the flat form loses wildcard routes whose static parent serves nothing (find-my-way 9 prettyPrint).
    const served = servedRoutes(t.app.server.printRoutes());
    await t.close();
    // The redirect to the Swagger page is not an API operation.
    served.delete('GET /swagger');
    expect(served.size).toBeGreaterThan(150);
    const documented = documentedRoutes(doc);
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
  });

  it('declares every query parameter a handler reads, each with a type and a description', () => {
    // Handlers get no raw request: their only query input is the route's declared schema (route.ts ApiInput).
    for (const file of routeSources(srcRoot)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/\breq(uest)?\.(query|url|raw)\b|\bsearchParams\b/);
    }
    for (const route of allRoutes) {
      const operation = op(route.path, route.method.toLowerCase() as (typeof METHODS)[number]);
      const declared = Object.keys(route.query?.shape ?? {});
      const documented = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      expect(documented, route.operationId).toEqual(declared);
      for (const [name, field] of Object.entries(route.query?.shape ?? {})) {
        const paramDoc = queryParamDoc(field as never);
        expect(paramDoc?.description, `${route.operationId} ?${name}`).toBeTruthy();
        expect(paramDoc?.schema.type, `${route.operationId} ?${name}`).toMatch(/^(string|integer|boolean|array)$/);
      }
      if (route.list) expect(declared, route.operationId).toEqual(expect.arrayContaining(['page', 'limit']));
    }
  });

  it('documents lists with page/limit and their pagination headers', () => {
    const list = op('/repos/{owner}/{repo}/issues', 'get');
    expect(param(list, 'page').schema).toEqual({ type: 'integer', minimum: 1, default: 1 });
    expect(param(list, 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 30 });
    expect(param(list, 'state').schema).toEqual({ type: 'string', enum: ['open', 'closed', 'all'], default: 'open' });
    expect(param(list, 'since').schema).toEqual({ type: 'string', format: 'date-time' });
    expect(Object.keys(list.responses['200']?.headers ?? {})).toEqual(['X-Total-Count', 'Link']);
    expect(jsonSchema(list.responses['200'])).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Issue' } });
    expect(Object.keys(op('/orgs/{org}/labels', 'get').responses['200']?.headers ?? {})).toEqual(['X-Total-Count']);
    expect(Object.keys(op('/repos/{owner}/{repo}/pulls/{index}/files', 'get').responses['200']?.headers ?? {})).toContain('X-HasMore');
    const labels = param(op('/repos/{owner}/{repo}/pulls', 'get'), 'labels');
    expect(labels).toMatchObject({ style: 'form', explode: true, schema: { type: 'array', items: { type: 'integer', format: 'int64' } } });
    const lists = allRoutes.filter((r) => r.list);
    expect(lists.length).toBeGreaterThan(40);
  });

  it('types path parameters: index and id are integers, except ids that may be names', () => {
    let indexes = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const m of METHODS) {
        for (const x of (ops[m]?.parameters ?? []).filter((y) => y.in === 'path')) {
          expect(x.required).toBe(true);
          if (x.name !== 'index') continue;
          indexes++;
          expect(x.schema, `${m} ${p}`).toEqual({ type: 'integer', format: 'int64' });
        }
      }
    }
    expect(indexes).toBeGreaterThan(30);
    const idType = (p: string, m: (typeof METHODS)[number]) => param(op(p, m), 'id').schema.type;
    expect(idType('/repos/{owner}/{repo}/keys/{id}', 'get')).toBe('integer');
    expect(idType('/teams/{id}', 'get')).toBe('integer');
    expect(idType('/repositories/{id}', 'get')).toBe('integer');
    expect(idType('/repos/{owner}/{repo}/labels/{id}', 'get')).toBe('string');
    expect(idType('/repos/{owner}/{repo}/labels/{id}', 'patch')).toBe('integer');
    expect(idType('/repos/{owner}/{repo}/milestones/{id}', 'get')).toBe('string');
    expect(param(op('/repos/{owner}/{repo}/pulls/{index}.{diffType}', 'get'), 'diffType').schema.enum).toEqual(['diff', 'patch']);
  });

  it("names Gitea's shapes once and refers to them, with nullable fields as `nullable: true`", () => {
    for (const name of [
      'Repository',
      'Issue',
      'PullRequest',
      'User',
      'Label',
      'Milestone',
      'Team',
      'Organization',
      'Comment',
      'PRBranchInfo',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(prop('Issue', 'user')).toEqual({ $ref: '#/components/schemas/User' });
    expect(prop('Issue', 'closed_at')).toEqual({ nullable: true, type: 'string' });
    expect(prop('Issue', 'milestone')).toEqual({ type: 'object', nullable: true, allOf: [{ $ref: '#/components/schemas/Milestone' }] });
    // OpenAPI 3.0.3 ignores `nullable` without a `type` beside it (Redocly's struct rule says so too).
    const untyped: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      if (o.nullable === true && typeof o.type !== 'string') untyped.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(untyped).toEqual([]);
    expect(prop('PullRequest', 'head')).toEqual({ $ref: '#/components/schemas/PRBranchInfo' });
    expect(prop('Repository', 'parent')).toEqual({ $ref: '#/components/schemas/Repository' });
    // No user-shaped object is written out inline: every User is a reference.
    const text = JSON.stringify(doc);
    expect(text.match(/"login_name":/g)).toHaveLength(1 + 2); // User, CreateUserOption, EditUserOption
    // OpenAPI 3.0 has no type arrays and no `null` type.
    expect(text).not.toMatch(/"type":\["|"type":"null"/);
    // Merge's `do` has its enum; request bodies refer to Gitea's option names.
    expect(prop('MergePullRequestOption', 'do')?.enum).toEqual([
      'merge',
      'rebase',
      'rebase-merge',
      'squash',
      'fast-forward-only',
      'manually-merged',
    ]);
    expect(jsonSchema(op('/repos/{owner}/{repo}/pulls/{index}/merge', 'post').requestBody)).toEqual({
      $ref: '#/components/schemas/MergePullRequestOption',
    });
    for (const route of allRoutes.filter((r) => r.body)) {
      const body = jsonSchema(op(route.path, route.method.toLowerCase() as (typeof METHODS)[number]).requestBody);
      expect(body?.$ref, `${route.operationId} body`).toMatch(/^#\/components\/schemas\/\w+$/);
    }
  });

  it('has the structure client generators and linters need (issue #30: orval, @hey-api/openapi-ts, Redocly)', () => {
    // Every schema object of the document, with where it is.
    const schemas: [string, Schema][] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const o = node as Schema;
      if (o.type !== undefined || o.properties || o.allOf || o.anyOf || o.oneOf || o.$ref) schemas.push([at, o]);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(schemas.length).toBeGreaterThan(1000);
    // No one-entry composition: the only one allowed is OpenAPI 3.0's nullable reference (3.0 ignores `$ref` siblings).
    const compositions = schemas.filter(([, s]) => ['allOf', 'anyOf', 'oneOf'].some((k) => (s[k] as unknown[] | undefined)?.length === 1));
    const nullableRef = (s: Schema) =>
      Object.keys(s).sort().join() === 'allOf,nullable,type' &&
      s.type === 'object' &&
      s.nullable === true &&
      (s.allOf as Schema[])[0]?.$ref;
    expect(compositions.filter(([, s]) => !nullableRef(s)).map(([at]) => at)).toEqual([]);
    // No two properties of one schema whose names differ only by case (orval makes one identifier of both).
    const clashes = schemas.flatMap(([at, s]) => {
      const names = Object.keys(s.properties ?? {});
      return names.filter((n, i) => names.findIndex((m) => m.toLowerCase() === n.toLowerCase()) !== i).map((n) => `${at}.${n}`);
    });
    expect(clashes).toEqual([]);
    // Every required property is a property.
    for (const [at, s] of schemas)
      for (const r of (s.required as string[] | undefined) ?? []) expect(s.properties, `${at} ${r}`).toHaveProperty(r);
    // Every security scheme is used, and operations use only declared ones.
    const used = new Set(Object.values(doc.paths).flatMap((ops) => METHODS.flatMap((m) => (ops[m]?.security ?? []).flatMap(Object.keys))));
    expect([...used].sort()).toEqual(Object.keys(doc.components.securitySchemes).sort());
    // Gitea answers `null` for an empty reaction list; validating clients must accept it.
    for (const path of ['/repos/{owner}/{repo}/issues/{index}/reactions', '/repos/{owner}/{repo}/issues/comments/{id}/reactions']) {
      expect(jsonSchema(op(path, 'get').responses['200']), path).toEqual({
        type: 'array',
        nullable: true,
        items: { $ref: '#/components/schemas/Reaction' },
      });
    }
    // The merge body names its JSON fields only, `do` required as in Gitea's document; the Go-name aliases stay on the wire.
    const merge = doc.components.schemas.MergePullRequestOption as Schema;
    expect(Object.keys(merge.properties ?? {}).filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(merge.required).toEqual(['do']);
  });

  it('declares bodiless successes, errors by Gitea response names, security with token scopes, deprecations', () => {
    const merged = '/repos/{owner}/{repo}/pulls/{index}/merge';
    expect(op(merged, 'get').responses['204']?.content).toBeUndefined();
    expect(op(merged, 'post').responses['200']?.content).toBeUndefined();
    expect(op(merged, 'post').responses['405']).toEqual({ $ref: '#/components/responses/methodNotAllowed' });
    expect(op('/repos/{owner}/{repo}', 'delete').responses['204']).toEqual({ $ref: '#/components/responses/empty' });
    expect(jsonSchema(doc.components.responses.notFound)).toEqual({ $ref: '#/components/schemas/APIError' });
    const create = op('/repos/{owner}/{repo}/issues', 'post');
    expect(create['x-token-scopes']).toEqual(['write:issue']);
    expect(create.security).toContainEqual({});
    const admin = op('/admin/users', 'get');
    expect(admin['x-token-scopes']).toEqual(['read:admin']);
    expect(admin.security).not.toContainEqual({});
    expect(admin.description).toMatch(/Site administrators only/);
    expect(op('/org/{org}/repos', 'post').deprecated).toBe(true);
    expect(op('/repos/{owner}/{repo}/times/{user}', 'get').deprecated).toBe(true);
    expect(op('/repos/{owner}/{repo}/issues/{index}/comments/{id}', 'patch').deprecated).toBe(true);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['AccessToken', 'AuthorizationHeaderToken', 'BasicAuth', 'Token']);
    expect((doc as unknown as { info: { description: string } }).info.description).toMatch(/`sudo` query parameter or the `Sudo` header/);
  });
});

/** A program using the generated types with openapi-fetch; it must typecheck strictly and run. */
function clientProgram(fetchModule: string): string {
  return `import createClient from ${JSON.stringify(fetchModule)};
import type { paths } from './schema.d.ts';

export async function run(baseUrl: string, authorization: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization } });
  const repo = await client.POST('/user/repos', { body: { name: 'generated', auto_init: false } });
  if (!repo.data) throw new Error('create repository: ' + repo.response.status);
  const owner = repo.data.owner.login;
  for (const title of ['one', 'two', 'three']) {
    const created = await client.POST('/repos/{owner}/{repo}/issues', {
      params: { path: { owner, repo: 'generated' } },
      body: { title, labels: [] },
    });
    if (created.response.status !== 201) throw new Error('create issue: ' + created.response.status);
  }
  const page = await client.GET('/repos/{owner}/{repo}/issues', {
    params: { path: { owner, repo: 'generated' }, query: { state: 'all', page: 2, limit: 2 } },
  });
  const first = await client.GET('/repos/{owner}/{repo}/issues/{index}', {
    params: { path: { owner, repo: 'generated', index: 1 } },
  });
  if (!first.data) throw new Error('get issue');
  const closedAt: string | null = first.data.closed_at;
  // @ts-expect-error closed_at is nullable: a generator that lost \`nullable\` would accept this.
  const notNull: string = first.data.closed_at;
  const missing = await client.GET('/repos/{owner}/{repo}/issues/{index}', {
    params: { path: { owner, repo: 'generated', index: 999 } },
  });
  const message: string | undefined = missing.error?.message;
  const closed = await client.PATCH('/repos/{owner}/{repo}/issues/{index}', {
    params: { path: { owner, repo: 'generated', index: 1 } },
    body: { state: 'closed' },
  });
  return {
    pageTitles: (page.data ?? []).map((i) => i.title),
    totalCount: page.response.headers.get('x-total-count'),
    link: page.response.headers.get('link'),
    closedAtBefore: closedAt,
    notNull,
    missingStatus: missing.response.status,
    missingMessage: message,
    missingUrl: missing.error?.url,
    closedStatus: closed.response.status,
    closedAtAfter: closed.data?.closed_at ?? null,
  };
}
`;
}

describe('a client generated from the document (openapi-typescript + openapi-fetch)', () => {
  let program: string;
  beforeAll(() => {
    const fetchModule = createRequire(import.meta.url)
      .resolve('openapi-fetch')
      .replace(/\.c?js$/, '.mjs');
    program = path.join(workDir, 'client.ts');
    writeFileSync(program, clientProgram(fetchModule));
  });

  it('generates types that typecheck strictly, with nullable fields as `| null`', () => {
    expect(generated).toMatch(/closed_at: string \| null;/);
    expect(generated).toMatch(/milestone: components\["schemas"\]\["Milestone"\] \| null;/);
    expect(generated).toMatch(/page\?: number;/);
    expect(generated).toMatch(/\bdo: "merge" \| "rebase" \| "rebase-merge" \| "squash" \| "fast-forward-only" \| "manually-merged";/);
    const host = ts.createCompilerHost({});
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    };
    const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([program], options, host));
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });

  describe.each(PROVIDERS)('against a running server (%s)', (provider) => {
    let t: TestApp;
    let baseUrl: string;
    beforeAll(async () => {
      t = await startTestApp(provider);
      await t.app.server.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.server.address();
      baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    });
    afterAll(() => t.close());

    it('lists with page/limit, reads a nullable field, gets an error and writes', async () => {
      await t.createUser('genuser');
      const token = await t.createToken('genuser');
      const { run } = (await import(pathToFileURL(program).href)) as { run: (u: string, a: string) => Promise<Record<string, unknown>> };
      const out = await run(baseUrl, `token ${token}`);
      expect(out.pageTitles).toEqual(['one']);
      expect(out.totalCount).toBe('3');
      expect(out.link).toContain('rel="first"');
      expect(out.closedAtBefore).toBeNull();
      expect(out.missingStatus).toBe(404);
      expect(out.missingMessage).toEqual(expect.any(String));
      expect(out.missingUrl).toBe('http://localhost:3000/api/swagger');
      expect(out.closedStatus).toBe(201);
      expect(out.closedAtAfter).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
    });
  });
});
