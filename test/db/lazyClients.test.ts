// A server loads the Prisma client of its own database only (src/db/client.ts imports the PostgreSQL one when asked),
// and GraphQL at its first GraphQL request (GRAPHQL_PRELOAD unset): `forgegraph serve` runs from the bundle in a child
// process whose module loads are recorded by a resolve hook, and the bundle chunks and packages it loaded are checked.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS, createMigratedDatabase, type TestDatabase } from '../helpers/db.ts';
import { freePort, ServerProcess } from '../helpers/serverProcess.ts';
import { serverEnv } from '../helpers/serverDatabase.ts';

/** Registers a resolve hook that appends every module URL the process loads to LOADED_MODULES_FILE. */
const HOOK = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
  import { appendFileSync } from 'node:fs';
  export async function resolve(specifier, context, next) {
    const result = await next(specifier, context);
    appendFileSync(process.env.LOADED_MODULES_FILE, result.url + '\\\\n');
    return result;
  }\`));
`;

/** What a process loaded: package names (node_modules) and the bundle's chunks' sources (their `// src/…` markers). */
function loaded(file: string): { packages: Set<string>; sources: Set<string> } {
  const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(urls.map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1]).filter((p): p is string => !!p));
  const sources = new Set<string>();
  for (const url of urls.filter((u) => u.startsWith('file:') && u.includes('/dist/'))) {
    for (const m of readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ (src\/\S+)$/gm)) sources.add(m[1]!);
  }
  return { packages, sources };
}

describe.each(PROVIDERS)('the database clients a server loads (%s)', (provider) => {
  let database: TestDatabase;
  let modules: ReturnType<typeof loaded>;
  let beforeGraphql: ReturnType<typeof loaded>;
  let graphqlStatus = 0;

  beforeAll(async () => {
    database = await createMigratedDatabase(provider);
    const port = await freePort();
    const file = path.join(database.dataDir, 'loaded-modules.txt');
    const server = new ServerProcess({
      ...serverEnv(database, port),
      LOADED_MODULES_FILE: file,
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(HOOK)}`,
    });
    try {
      await server.ready(port);
      // A request that reads the database through the client.
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      beforeGraphql = loaded(file);
      const res = await fetch(`http://127.0.0.1:${port}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      graphqlStatus = res.status;
      await res.text();
    } finally {
      await server.stop();
    }
    modules = loaded(file);
  }, 180_000);

  afterAll(async () => {
    await database?.drop();
  });

  it("loads its own database's client and adapter", () => {
    const own = provider === 'sqlite' ? 'sqlite' : 'postgresql';
    expect(modules.sources).toContain(`src/generated/${own}/client.ts`);
    expect(modules.packages).toContain(provider === 'sqlite' ? '@prisma/adapter-better-sqlite3' : '@prisma/adapter-pg');
  });

  it.runIf(provider === 'sqlite')('a SQLite server never loads the PostgreSQL client or its adapter', () => {
    expect([...modules.sources].filter((s) => s.startsWith('src/generated/postgresql/'))).toEqual([]);
    expect(modules.packages).not.toContain('@prisma/adapter-pg');
  });

  it('a start loads none of the packages only some requests use (src/lazyPackage.ts)', () => {
    for (const name of ['yaml', 'sshpk', 'isomorphic-git', 'markdown-it', 'markdown-it-emoji', 'sanitize-html', 'spdx-license-list']) {
      expect(beforeGraphql.packages, name).not.toContain(name);
    }
  });

  it('loads graphql-js, the GraphQL schema and Yoga at the first GraphQL request, not at start', () => {
    expect(beforeGraphql.sources).toContain('src/graphql/server.ts');
    expect(beforeGraphql.sources).not.toContain('src/graphql/schema.ts');
    expect(beforeGraphql.sources).not.toContain('src/graphql/yoga.ts');
    expect(beforeGraphql.packages).not.toContain('graphql');
    expect(graphqlStatus).toBe(200);
    expect(modules.sources).toContain('src/graphql/schema.ts');
    expect(modules.packages).toContain('graphql');
  });
});
