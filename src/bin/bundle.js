// `npm run build`, and the `forgegraph` command when the bundle is older than the sources: bundles the server and
// the CLI (src/main.ts and everything it imports from src/) into dist/, packages left to node_modules. Node then
// loads a few files instead of compiling ~500 TypeScript modules through tsx's loader thread at every start:
// `forgegraph serve` is ready in about half the time and with about half the CPU.
//
// The CLI's commands import their code lazily, and the bundle is split at those imports (dist/forgegraph.mjs, the
// entry, and dist/chunks/): `forgegraph --version` loads the entry alone, `admin user create` the database and the
// user services, never the HTTP server or the GraphQL schema. Plain JavaScript: the command runs it without tsx.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyParamGraph } from './prismaParamGraph.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST = path.join(ROOT, 'dist');

/** The entry the `forgegraph` command runs. */
export const BUNDLE = path.join(DIST, 'forgegraph.mjs');

/** Chunks of earlier builds are removed once this old (a process started from such a build may still import one). */
const KEEP_OLD_CHUNKS_MS = 3_600_000;

/** Where Prisma's generated client fetches its query compiler: a module holding the WebAssembly as base64 text. */
const WASM_IMPORT =
  /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_[\w.]+)\.wasm-base64\.mjs"\)\s*return await decodeBase64AsWasm\(wasm\)/;

/**
 * Prisma's generated client (src/generated/<provider>/internal/class.ts) imports its query compiler as a module
 * whose one export is the WebAssembly in base64: 4.2 MB of source text and a 4.2 MB string, both held by the
 * process for as long as it runs, and decoded at its first query. In the bundle the client reads the WebAssembly
 * from a file written next to the chunks instead (bench/coldStart.ts, idle heap). Files of the chunks directory
 * are named by their content, as the chunks are.
 */
function prismaWasmFromFile(wasmFiles) {
  const require = createRequire(path.join(ROOT, 'package.json'));
  return {
    name: 'prisma-wasm-from-file',
    setup(build) {
      build.onLoad({ filter: /[\\/]generated[\\/]\w+[\\/]internal[\\/]class\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const match = WASM_IMPORT.exec(source);
        if (!match) throw new Error(`${args.path}: Prisma's query compiler import has changed; update WASM_IMPORT in src/bin/bundle.js`);
        const base64 = readFileSync(require.resolve(`${match[1]}.wasm-base64.mjs`), 'utf8');
        const bytes = Buffer.from(/"([A-Za-z0-9+/=]+)"/.exec(base64)?.[1] ?? '', 'base64');
        if (!globalThis.WebAssembly.validate(bytes)) throw new Error(`${match[1]}.wasm-base64.mjs: not WebAssembly`);
        const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
        const name = `${path.basename(match[1])}-${hash}.wasm`;
        wasmFiles.set(path.join(DIST, 'chunks', name), bytes);
        const read = `const { readFile } = await import('node:fs/promises')
    return new WebAssembly.Module(await readFile(new URL(import.meta.url.includes('/chunks/') ? './${name}' : './chunks/${name}', import.meta.url)))`;
        return { contents: source.replace(WASM_IMPORT, read), loader: 'ts' };
      });
    },
  };
}

/** Prisma's client runtime, bundled in: its parameterization graph is decoded lazily (src/bin/prismaParamGraph.js). */
const PRISMA_RUNTIME = /[\\/]@prisma[\\/]client[\\/]runtime[\\/]client\.js$/;

function prismaLazyParamGraph() {
  return {
    name: 'prisma-lazy-param-graph',
    setup(build) {
      build.onLoad({ filter: PRISMA_RUNTIME }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const lazy = lazyParamGraph(source);
        if (lazy) return { contents: lazy, loader: 'js' };
        const text = `${args.path}: not the Prisma release src/bin/prismaParamGraph.js was written for; its graph is decoded eagerly`;
        return { contents: source, loader: 'js', warnings: [{ text }] };
      });
    },
  };
}

/**
 * `node:http` imported by an ES module becomes a module namespace of the builtin's exports, read once, all of them.
 * On Node 22+ three of them (`WebSocket`, `CloseEvent`, `MessageEvent`) are getters that load Node's bundled undici
 * to answer: its 770 kB of source and its objects, though the server never uses them (Node 24: a bare process that
 * imports `node:http` idles at 61 MB of RSS, one that requires it at 47 MB; the idle server, together with the
 * Latin-1 comments below, went from 150 to 145 MB, bench/coldStart.ts). So the
 * bundle's imports of `node:http` (ours and those of the packages bundled in, such as Connect's) get the builtin
 * through `require`, and a module exporting its other names.
 */
const HTTP_LAZY_UNDICI = new Set(['WebSocket', 'CloseEvent', 'MessageEvent']);

function nodeHttpViaRequire() {
  const names = Object.keys(createRequire(import.meta.url)('node:http')).filter((name) => !HTTP_LAZY_UNDICI.has(name));
  return {
    name: 'node-http-via-require',
    setup(build) {
      // CommonJS code bundled in (@whatwg-node/node-fetch) requires it as it did: the builtin itself.
      build.onResolve({ filter: /^(node:)?http$/ }, (args) =>
        args.kind === 'require-call' ? { path: 'node:http', external: true } : { path: 'node:http', namespace: 'node-http-via-require' },
      );
      build.onLoad({ filter: /^/, namespace: 'node-http-via-require' }, () => ({
        contents: `import { createRequire } from 'node:module';
const http = createRequire(import.meta.url)('node:http');
export default http;
export const { ${names.join(', ')} } = http;`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Packages bundled in, though the bundle leaves packages to node_modules. Node loads an ES module package file by
 * file: linguist-languages is 833 modules of one object each, GraphQL Yoga and the GraphQL Tools it loads ~760,
 * Pothos, zod, jose, protobuf and Connect ~350 more. Each file is a module Node resolves, reads and keeps, with its
 * source text. Bundled, they are a few chunks (bench/coldStart.ts: ready time and idle RSS). Every importer of these
 * is bundled too, so each stays one copy (Pothos' plugins share @pothos/core's classes); graphql itself stays in
 * node_modules, the one copy the tests' sources load too.
 */
const BUNDLED_PACKAGES =
  /^(linguist-languages|graphql-yoga|@graphql-yoga\/[^/]+|@graphql-tools\/[^/]+|@envelop\/[^/]+|@whatwg-node\/[^/]+|@repeaterjs\/repeater|@pothos\/[^/]+|zod|jose|@bufbuild\/protobuf|@connectrpc\/[^/]+|@prisma\/client\/runtime\/client)(\/|$)/;

/** Packages stay in node_modules (as esbuild's `packages: 'external'`), but for BUNDLED_PACKAGES. */
function externalPackages() {
  return {
    name: 'external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true }));
    },
  };
}

/**
 * V8 keeps a module's source for as long as the module lives, as one byte per character when every character is
 * Latin-1 and as two otherwise. esbuild escapes the characters beyond ASCII of strings and templates, but not those
 * of regular expressions or of the comments it keeps, and one dash in a comment doubled the memory of an 842 kB
 * chunk. Characters beyond Latin-1 on comment lines (esbuild writes a kept comment on lines of its own, starting
 * with `//`, `/*` or `* `; no line of code starts so) become `?`: one UTF-16 unit for another, so the source maps'
 * columns still hold. Code keeps its characters.
 */
const COMMENT_LINE_BEYOND_LATIN1 = /^[ \t]*(?:\/\/|\/\*|\*(?=[ \t/]|$)).*[\u0100-\uffff].*$/gm;

function latin1Comments(text) {
  return text.replace(COMMENT_LINE_BEYOND_LATIN1, (line) => line.replace(/[\u0100-\uffff]/g, '?'));
}

/**
 * Builds the bundle and its source maps. Chunks are named by their content, so a process running an earlier build
 * never reads a new chunk in place of its own; each file is written whole (temporary file, rename) and the entry
 * last, so a process starting meanwhile sees the old build or the new one.
 */
export async function bundle() {
  const { build } = await import('esbuild');
  const wasmFiles = new Map();
  const result = await build({
    entryPoints: { forgegraph: path.join(ROOT, 'src/main.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // For NODE_OPTIONS=--enable-source-maps (src/bin/forgegraph.js). Stack traces need the mappings only; with the
    // sources' text every process that maps its stacks would hold it in memory: several MB for nothing.
    sourcesContent: false,
    outdir: DIST,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    write: false,
    logLevel: 'warning',
    plugins: [prismaWasmFromFile(wasmFiles), prismaLazyParamGraph(), nodeHttpViaRequire(), externalPackages()],
    // CommonJS code bundled in (@whatwg-node/fetch) requires packages left in node_modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const isEntry = (file) => file.path === BUNDLE || file.path === `${BUNDLE}.map`;
  const wasm = [...wasmFiles].map(([file, contents]) => ({ path: file, contents }));
  const outputs = result.outputFiles.map((f) => (f.path.endsWith('.mjs') ? { path: f.path, contents: latin1Comments(f.text) } : f));
  const files = [...wasm, ...outputs.filter((f) => !isEntry(f)), ...outputs.filter(isEntry)];
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
