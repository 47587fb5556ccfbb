// `npm run build`, and the `forgegraph` command when the bundle is older than the sources: bundles the server and
// the CLI (src/main.ts and everything it imports from src/) into dist/, packages left to node_modules. Node then
// loads a few files instead of compiling ~500 TypeScript modules through tsx's loader thread at every start:
// `forgegraph serve` is ready in about half the time and with about half the CPU.
//
// The CLI's commands import their code lazily, and the bundle is split at those imports (dist/forgegraph.mjs, the
// entry, and dist/chunks/): `forgegraph --version` loads the entry alone, `admin user create` the database and the
// user services, never the HTTP server or the GraphQL schema. Plain JavaScript: the command runs it without tsx.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dist');

/** The entry the `forgegraph` command runs. */
export const BUNDLE = path.join(DIST, 'forgegraph.mjs');

/** Chunks of earlier builds are removed once this old (a process started from such a build may still import one). */
const KEEP_OLD_CHUNKS_MS = 3_600_000;

/**
 * Builds the bundle and its source maps. Chunks are named by their content, so a process running an earlier build
 * never reads a new chunk in place of its own; each file is written whole (temporary file, rename) and the entry
 * last, so a process starting meanwhile sees the old build or the new one.
 */
export async function bundle() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { forgegraph: path.join(ROOT, 'src/main.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    logLevel: 'warning',
  });
  const isEntry = (file) => file.path === BUNDLE || file.path === `${BUNDLE}.map`;
  const files = [...result.outputFiles.filter((f) => !isEntry(f)), ...result.outputFiles.filter(isEntry)];
  for (const file of files) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
  const written = new Set(files.map((f) => f.path));
  const chunks = path.join(DIST, 'chunks');
  for (const name of readdirSync(chunks)) {
    const file = path.join(chunks, name);
    if (!written.has(file) && Date.now() - statSync(file).mtimeMs > KEEP_OLD_CHUNKS_MS) rmSync(file, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundle();
