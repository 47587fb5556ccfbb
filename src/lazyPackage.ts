// Packages that only some configurations use (PostgreSQL's driver, Redis' client) or only a few requests (the SPDX
// license texts) are loaded at their first use, not with the modules that name them: `forgegraph serve` on SQLite
// without Redis spent ~0.25 s of its start importing them, and kept the 5 MB of license texts resident
// (bench/coldStart.ts). The same for packages only some features use: YAML (Actions workflows, issue templates), SSH
// key parsing, isomorphic-git (file writes, a new repository's first commit), markdown rendering and HTML
// sanitizing: ~200 modules a server start no longer loads. Synchronous (require), so what constructors build stays synchronous (CommonJS packages, JSON).
// Likewise MIME types by file name (a 200 KB table: raw files and attachments) and Fastify's JSON-schema compilers.
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';
import type Mime from 'mime-types';
import type pg from 'pg';
import type IORedis from 'ioredis';
import type SpdxFull from 'spdx-license-list/full.js';
import type IsomorphicGit from 'isomorphic-git';
import type Sshpk from 'sshpk';
import type * as Yaml from 'yaml';
import type MarkdownIt from 'markdown-it';
import type * as MarkdownItEmoji from 'markdown-it-emoji';
import type SanitizeHtml from 'sanitize-html';

const require = createRequire(import.meta.url);

/** A getter of the package `name`, which loads it at the first call. */
function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}

/** PostgreSQL's driver: a SQLite server never loads it. */
export const pgModule = lazyPackage<typeof pg>('pg');

/** Redis' client: loaded only when REDIS_URL is set. */
export const ioredisModule = lazyPackage<typeof IORedis>('ioredis');

/** The SPDX licenses with their texts (5 MB of JSON): loaded by the requests that need them. */
export const spdxLicenses = lazyPackage<typeof SpdxFull>('spdx-license-list/full.js');

/** YAML: Actions workflows and issue templates. */
export const yamlModule = lazyPackage<typeof Yaml>('yaml');

/** SSH public key parsing (services/user/sshKey.ts). */
export const sshpkModule = lazyPackage<typeof Sshpk>('sshpk');

/** isomorphic-git: the object reads and writes done in-process (src/git). */
export const isomorphicGit = lazyPackage<typeof IsomorphicGit>('isomorphic-git');

/** markdown-it and its emoji plugin (services/markup/markdown.ts). */
export const markdownItModule = lazyPackage<typeof MarkdownIt>('markdown-it');
export const markdownItEmojiModule = lazyPackage<typeof MarkdownItEmoji>('markdown-it-emoji');

/** The HTML sanitizer (services/markup/sanitize.ts). */
export const sanitizeHtmlModule = lazyPackage<typeof SanitizeHtml>('sanitize-html');

/** MIME types by file name (rest/rawReply.ts, attachments). */
export const mimeTypes = lazyPackage<typeof Mime>('mime-types');

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** A function that loads the function it stands for at its first call (`load` runs once). */
function loadedAtFirstCall<F extends (...args: never[]) => unknown>(load: () => F): F {
  let loaded: F | undefined;
  return ((...args: Parameters<F>) => (loaded ??= load())(...args)) as F;
}

/**
 * Fastify's schema compilers (ajv for validation, fast-json-stringify for responses), loaded at their first use:
 * Fastify loads both when a server is made (~60 ms of `forgegraph serve`'s start, bench/coldStart.ts) and uses them
 * only for routes with a JSON schema, which ours do not declare (bodies and queries are checked by zod,
 * src/rest/route.ts). The same compilers as Fastify's defaults, from Fastify's own dependencies.
 */
export function lazySchemaCompilers(): Required<CompilersFactory> {
  const fromFastify = createRequire(require.resolve('fastify'));
  type Factories = Required<CompilersFactory>;
  return {
    buildValidator: loadedAtFirstCall(() => (fromFastify('@fastify/ajv-compiler') as () => Factories['buildValidator'])()),
    buildSerializer: loadedAtFirstCall(() =>
      (fromFastify('@fastify/fast-json-stringify-compiler') as () => Factories['buildSerializer'])(),
    ),
  };
}
