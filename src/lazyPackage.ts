// Packages that only some configurations use (PostgreSQL's driver, Redis' client) or only a few requests (the SPDX
// license texts) are loaded at their first use, not with the modules that name them: `forgegraph serve` on SQLite
// without Redis spent ~0.25 s of its start importing them, and kept the 5 MB of license texts resident
// (bench/coldStart.ts). The same for packages only some features use: YAML (Actions workflows, issue templates), SSH
// key parsing, isomorphic-git (file writes, a new repository's first commit), markdown rendering and HTML
// sanitizing: ~200 modules a server start no longer loads. Synchronous (require), so what constructors build stays synchronous (CommonJS packages, JSON).
import { createRequire } from 'node:module';
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
