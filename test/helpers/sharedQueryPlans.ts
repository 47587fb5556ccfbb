// Vitest setup file: one store of Prisma query plans per database provider in a test worker, shared by every
// PrismaClient the worker builds.
//
// Prisma compiles each query shape into a plan (its query compiler, WebAssembly) and caches the plans per client. The
// suite builds a client for every test app (several hundred per run), and each recompiled the same shapes: a tenth of
// the workers' CPU. A plan depends only on the query shape and on what the compiler was built with: the datamodel
// (the provider's generated client), the provider, and the adapter's connection info (src/db/client.ts sets no
// PostgreSQL schema, so it is the same for every test database). So plans compiled once are valid for all of them.
// Prisma treats a plan as immutable (its own cache hands one plan to every request of that shape). Failures are not
// stored. The product is untouched: a server has one client, whose cache is warm after the first requests.

interface CompilerModule {
  QueryCompiler: { prototype: { compile(request: string): unknown; compileBatch(request: string): unknown } };
}

const PATCHED = Symbol.for('forgegraph.test.sharedQueryPlans');

async function share(specifier: string): Promise<void> {
  const { QueryCompiler } = (await import(specifier)) as CompilerModule;
  const proto = QueryCompiler.prototype as CompilerModule['QueryCompiler']['prototype'] & { [PATCHED]?: true };
  if (proto[PATCHED]) return; // the worker ran this file before (workers are reused across test files)
  proto[PATCHED] = true;
  for (const method of ['compile', 'compileBatch'] as const) {
    const compile = proto[method];
    const plans = new Map<string, unknown>();
    proto[method] = function (this: unknown, request: string) {
      let plan = plans.get(request);
      if (plan === undefined) {
        plan = compile.call(this, request);
        plans.set(request, plan);
      }
      return plan;
    };
  }
}

await share('@prisma/client/runtime/query_compiler_fast_bg.sqlite.mjs');
await share('@prisma/client/runtime/query_compiler_fast_bg.postgresql.mjs');
