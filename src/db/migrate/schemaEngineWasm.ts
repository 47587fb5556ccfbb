import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';

export type { SchemaEngine };

type WasmExports = Record<string, unknown>;
type WasmImports = Record<string, Record<string, unknown>>;

/** The slice of the WebAssembly global we use; typed here so no DOM lib is needed. */
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: WasmImports): Promise<{ instance: { exports: WasmExports } }>;
}

/** The wasm-bindgen glue as loaded once per process. */
export type SchemaEngineGlue = typeof glue;

// The glue module keeps the wasm instance in a module-global variable, so it must be instantiated
// exactly once per process. The promise lives on globalThis because test runners may load this
// file more than once while sharing the (external) glue module.
const GLOBAL_KEY = Symbol.for('forgegraph.schemaEngineWasm');
type GlobalWithEngine = typeof globalThis & { [GLOBAL_KEY]?: Promise<SchemaEngineGlue> };

/**
 * Loads `@prisma/schema-engine-wasm` once per process and returns its glue (with `SchemaEngine`).
 * The package's main entry imports the `.wasm` as an ES module, which Node 20 cannot do, and the
 * `.wasm` is not in `exports`; so we instantiate it by hand next to the exported `schema_engine_bg`.
 */
export function loadSchemaEngine(): Promise<SchemaEngineGlue> {
  const g = globalThis as GlobalWithEngine;
  g[GLOBAL_KEY] ??= instantiate().catch((err: unknown) => {
    delete g[GLOBAL_KEY];
    throw err;
  });
  return g[GLOBAL_KEY];
}

async function instantiate(): Promise<SchemaEngineGlue> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bytes = await readFile(gluePath.replace(/\.js$/, '.wasm'));
  const imports: Record<string, unknown> = { ...glue };
  for (const name of Object.keys(glue)) {
    // The engine arms a 10 s timer it never clears; unref it so short CLI runs exit promptly.
    if (name.startsWith('__wbg_setTimeout_')) imports[name] = unrefSetTimeout;
  }
  const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const { instance } = await wasmApi.instantiate(bytes, { './schema_engine_bg.js': imports });
  glue.__wbg_set_wasm(instance.exports);
  const start = instance.exports['__wbindgen_start'];
  if (typeof start === 'function') start();
  return glue;
}

function unrefSetTimeout(callback: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(callback, ms >>> 0).unref();
}
