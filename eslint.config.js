// Lint: typescript-eslint's recommended rules, the layers of DESIGN.md §2 (eslint-plugin-boundaries), import
// cycles, and which layer owns which foreign library. `npm run lint` adds knip (unused files, exports and
// dependencies) and `prettier --check`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import importX from 'eslint-plugin-import-x';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------------------------------------------------
// Layers (DESIGN.md §2): imports point down only.

/**
 * Service domains, lowest first: a domain may import the domains before it, never those after it. Below them
 * all: `services/access` (guards; repository, organization and team access) and the files directly in
 * `src/services` (context, paging).
 */
const SERVICE_DOMAINS = [
  // Stored avatar images: users, organizations and repositories keep theirs there.
  'avatar',
  'user',
  // GPG keys and commit signature verification: keys belong to users; protection and repositories verify.
  'gpg',
  'protection',
  'repo',
  // Markup renders what repositories and users hold; the wiki is a repository's second git repository.
  'markup',
  'wiki',
  'status',
  'org',
  'label',
  'issue',
  'milestone',
  'project',
  'pull',
  'package',
  'attachment',
  'release',
  'actions',
  'feed',
  'watch',
  'notification',
  'webhook',
  'migration',
  // The OAuth2 provider: its claims read organizations and teams (org) and avatars (user).
  'oauth',
  // Cron runs tasks of every domain (update_mirrors is migration's); nothing in services imports it.
  'cron',
];

/** Each source file's layer; `captured.domain` names a service domain folder. The first match wins. */
const layers = [
  { category: 'main', pattern: ['src/main.ts', 'src/bin/*', 'src/cli/**'] },
  { category: 'app', pattern: ['src/app.ts', 'src/logger.ts'] },
  // The built-in runner is a client of the runner protocol: it shares only the generated protobuf code.
  { category: 'builtinRunner', pattern: 'src/builtinRunner/**' },
  // Parsing of the jobs, cron, webhook, SSH and password hash settings (durations, schedules) belongs to the configuration.
  {
    category: 'config',
    pattern: [
      'src/config.ts',
      'src/environment.ts',
      'src/envValues.ts',
      'src/jobs/settings.ts',
      'src/jobs/duration.ts',
      'src/jobs/schedule.ts',
      'src/webhooks/settings.ts',
      'src/ssh/settings.ts',
      'src/auth/passwordHashSettings.ts',
    ],
  },
  // Leaf modules every layer may use: the domain errors, where the checkout is (src/paths.ts), packages loaded at
  // their first use (src/lazyPackage.ts), rows handed out to their parents (src/groupBy.ts) and pure functions
  // remembered for their last keys (src/memo.ts).
  { category: 'base', pattern: ['src/errors.ts', 'src/paths.ts', 'src/lazyPackage.ts', 'src/groupBy.ts', 'src/memo.ts'] },
  { category: 'service-base', pattern: 'src/services/*.ts' },
  { category: 'service-access', pattern: 'src/services/access/**' },
  { category: 'service', pattern: 'src/services/*/**', capture: ['domain', 'file'] },
  ...[
    'rest',
    'githubapi',
    'graphql',
    'githttp',
    'ssh',
    'packages',
    'runner',
    'oauth',
    'web',
    'webhooks',
    'ops',
    'notify',
    'jobs',
    'auth',
    'loaders',
    'permissions',
    'git',
    'db',
    'generated',
  ].map((d) => ({
    category: d,
    pattern: `src/${d}/**`,
  })),
];

const to = (...categories) => ({ to: { file: { categories: { anyOf: categories } } } });
const typesFrom = (...categories) => ({ ...to(...categories), dependency: { kind: 'type' } });
const from = (category, captured) => ({ file: captured ? { categories: category, captured } : { categories: category } });

/** What each layer may import; anything else fails (`default: 'disallow'`). */
const policies = [
  {
    from: from('main'),
    allow: [
      to('main', 'app', 'config', 'base', 'db', 'notify', 'jobs', 'service', 'service-base', 'service-access', 'auth', 'builtinRunner'),
    ],
  },
  { from: from('builtinRunner'), allow: [to('builtinRunner'), { to: { file: { path: 'src/runner/gen/**' } } }] },
  {
    from: from('app'),
    allow: [
      to(
        'app',
        'rest',
        'githubapi',
        'graphql',
        'githttp',
        'ssh',
        'packages',
        'runner',
        'oauth',
        'web',
        'webhooks',
        'ops',
        'service',
        'service-base',
        'notify',
        'jobs',
        'loaders',
        'auth',
        'db',
        'base',
        'config',
      ),
    ],
  },
  // Transports are thin and never import each other: services, authentication, per-request loaders and the
  // pure access model; database rows and git results only as types.
  ...['rest', 'githubapi', 'graphql', 'githttp', 'ssh', 'packages', 'runner', 'oauth'].map((t) => ({
    from: from(t),
    allow: [to(t, 'service', 'service-base', 'service-access', 'loaders', 'auth', 'permissions', 'base', 'config'), typesFrom('db', 'git')],
  })),
  // Outgoing webhooks: an outgoing transport. Like the REST API it renders Gitea's JSON (rest/convert, rest/structs
  // as types) from service reads, and it runs as jobs; nothing imports it but the app.
  {
    from: from('webhooks'),
    allow: [
      to(
        'webhooks',
        'service',
        'service-base',
        'service-access',
        'notify',
        'jobs',
        'loaders',
        'permissions',
        'git',
        'db',
        'base',
        'config',
      ),
      { to: { file: { path: 'src/rest/convert/**' } } },
      typesFrom('rest'),
    ],
  },
  // Operations (metrics, request ids, health and readiness): below the app, above nothing of the product.
  { from: from('ops'), allow: [to('ops')] },
  // Static pages and assets (landing page, Swagger UI, the GraphiQL page): nothing of the product below them.
  { from: from('web'), allow: [to('web', 'config', 'base')] },
  { from: from('graphql'), allow: [to('web')] },
  // The OAuth2 pages escape their text with the web layer's helper.
  { from: from('oauth'), allow: [{ to: { file: { path: 'src/web/html.ts' } } }] },
  // Pothos' Prisma plugin needs values from the data model: its DMMF and the scalar-field enums.
  { from: from('graphql'), allow: [{ to: { file: { path: 'src/db/client.ts' } } }] },
  {
    from: from('service-base'),
    allow: [to('service-base', 'notify', 'jobs', 'loaders', 'auth', 'permissions', 'db', 'base', 'config')],
  },
  {
    from: from('service-access'),
    allow: [to('service-access', 'service-base', 'loaders', 'auth', 'permissions', 'db', 'base', 'config')],
  },
  ...SERVICE_DOMAINS.map((domain, i) => ({
    from: from('service', { domain }),
    allow: [
      { to: { file: { categories: 'service', captured: { domain: SERVICE_DOMAINS.slice(0, i + 1) } } } },
      to('service-base', 'service-access', 'notify', 'jobs', 'loaders', 'auth', 'permissions', 'git', 'db', 'base', 'config'),
    ],
  })),
  // Read policies (visibility.ts) are pure filters and compose across domains: an attachment is read as its
  // release is, though releases store their files through the attachment domain.
  {
    from: from('service', { file: 'visibility.ts' }),
    allow: [{ to: { file: { categories: 'service', captured: { file: 'visibility.ts' } } } }],
  },
  { from: from('notify'), allow: [to('notify', 'jobs', 'loaders', 'permissions', 'git', 'db', 'base', 'config')] },
  { from: from('jobs'), allow: [to('jobs', 'loaders', 'permissions', 'git', 'db', 'base', 'config')] },
  // Authentication only: credentials → viewer; no permission decisions.
  { from: from('auth'), allow: [to('auth', 'db', 'base', 'config')] },
  { from: from('loaders'), allow: [to('loaders', 'permissions', 'db', 'base')] },
  // The access model is pure functions: rows only as types.
  { from: from('permissions'), allow: [to('permissions', 'base'), typesFrom('db')] },
  { from: from('config'), allow: [to('config', 'base')] },
  { from: from('git'), allow: [to('git', 'base')] },
  { from: from('db'), allow: [to('db', 'generated', 'base')] },
  { from: from('generated'), allow: [to('generated')] },
];

// ---------------------------------------------------------------------------------------------------------
// Foreign libraries have one owner (STYLE.md "Adapters own the foreign libraries"): only src/git spawns git or
// imports isomorphic-git, only src/db constructs Prisma, services know nothing of HTTP or GraphQL.

const OWNED = [
  { libs: '^isomorphic-git(/|$)', owners: ['src/git/**'] },
  // The built-in runner runs the steps of jobs (scripts, git for the checkout) as processes.
  { libs: '^(node:)?child_process(/|$)', owners: ['src/git/**', 'src/builtinRunner/**'] },
  { libs: '^(@prisma/|pg$|better-sqlite3$)', owners: ['src/db/**'] },
  {
    libs: '^(fastify|@fastify/)',
    owners: [
      'src/app.ts',
      'src/logger.ts',
      'src/ops/**',
      'src/web/**',
      'src/rest/**',
      'src/githubapi/**',
      'src/graphql/**',
      'src/githttp/**',
      'src/packages/**',
      'src/runner/**',
      'src/oauth/**',
    ],
  },
  { libs: '^(graphql|graphql-yoga|@graphql-yoga/(?!redis-event-target).*|@pothos/.*)$', owners: ['src/graphql/**'] },
  // Redis: live events across instances (pub/sub under the live bus) and shared failed sign-in counters.
  { libs: '^(@graphql-yoga/redis-event-target|ioredis)$', owners: ['src/notify/**', 'src/auth/**'] },
  { libs: '^commander$', owners: ['src/main.ts'] },
  { libs: '^ssh2$', owners: ['src/ssh/**'] },
  { libs: '^@node-rs/argon2$', owners: ['src/auth/**'] },
];
const LAYER_GLOBS = [
  ['src/main.ts', 'src/bin/**'],
  ['src/builtinRunner/**'],
  ['src/app.ts', 'src/logger.ts'],
  ['src/config.ts', 'src/environment.ts', 'src/errors.ts', 'src/paths.ts'],
  ...[
    'rest',
    'githubapi',
    'graphql',
    'githttp',
    'ssh',
    'packages',
    'runner',
    'oauth',
    'web',
    'webhooks',
    'ops',
    'services',
    'notify',
    'jobs',
    'auth',
    'loaders',
    'permissions',
    'git',
    'db',
  ].map((d) => [`src/${d}/**`]),
];
// ---------------------------------------------------------------------------------------------------------
// One way to move a ref (DESIGN.md §4): git's ref writers are imported by services/repo/moveRefs.ts only, which
// asks the protection gate before any branch or tag moves; a new repository's first refs are written by the
// service that creates it. test/services/refDoors.test.ts enumerates the doors behind it.

const REF_MODULE = 'src/services/repo/moveRefs.ts';
const REF_WRITERS = [
  { module: 'updateRef', owners: [REF_MODULE] },
  { module: 'writeHead', owners: [REF_MODULE] },
  { module: 'fetchIntoRef', owners: [REF_MODULE] },
  { module: 'createTag', importNames: ['createTag'], owners: [REF_MODULE] },
  { module: 'remoteMirror', importNames: ['fetchMirror'], owners: [REF_MODULE] },
  { module: 'writeInitialCommit', owners: ['src/services/repo/create.ts'] },
  { module: 'commitTemplateTree', importNames: ['commitTemplateTree'], owners: ['src/services/repo/templateContent.ts'] },
  { module: 'fork', importNames: ['forkRepository'], owners: ['src/services/repo/fork.ts'] },
];
const refWriterPatterns = (file) =>
  REF_WRITERS.filter((w) => !w.owners.includes(file)).map((w) => ({
    regex: `(^|/)git/${w.module}(\\.ts)?$`,
    ...(w.importNames ? { importNames: w.importNames } : {}),
    message: `git's ref writers are for ${w.owners.join(', ')} only: move branches and tags with moveRefs (services/repo/moveRefs.ts), which asks the protection gate (DESIGN.md §4)`,
  }));

const restrictedImports = (files, file) => {
  const foreign = OWNED.filter((o) => !o.owners.some((g) => files.includes(g)));
  const libs = foreign.map((o) => ({ regex: o.libs, message: `only ${o.owners.join(', ')} may import this (DESIGN.md §2)` }));
  return ['error', { patterns: [...libs, ...(files.includes('src/git/**') ? [] : refWriterPatterns(file))] }];
};
const ownership = [
  ...LAYER_GLOBS.map((files) => ({ files, rules: { 'no-restricted-imports': restrictedImports(files, null) } })),
  ...[...new Set(REF_WRITERS.flatMap((w) => w.owners))].map((file) => ({
    files: [file],
    rules: { 'no-restricted-imports': restrictedImports(['src/services/**'], file) },
  })),
];

// ---------------------------------------------------------------------------------------------------------
// Import cycles, type-only imports included (import-x/no-cycle skips those, and a type cycle is still two
// modules that cannot be understood one without the other).

let graphCache = null;

/** The relative-import graph of src/ (file → imported files) and its strongly connected components. */
function importGraph() {
  if (graphCache) return graphCache;
  const files = readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(ts|js)$/.test(d.name))
    .map((d) => path.join(d.parentPath, d.name))
    .filter((f) => !f.includes(`${path.sep}generated${path.sep}`));
  const known = new Set(files);
  const edges = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => path.resolve(path.dirname(file), i.fileName));
    edges.set(
      file,
      targets.filter((t) => known.has(t)),
    );
  }
  // Tarjan's algorithm.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const members = new Set();
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        members.add(w);
      } while (w !== v);
      for (const m of members) component.set(m, members);
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  graphCache = { edges, component };
  return graphCache;
}

/** The shortest import path from `start` back to `goal` inside their component. */
function cyclePath(graph, start, goal) {
  const members = graph.component.get(goal);
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    if (v === goal) break;
    for (const w of graph.edges.get(v)) {
      if (members.has(w) && !prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  const out = [];
  for (let v = goal; v !== null && v !== undefined; v = prev.get(v)) out.unshift(path.relative(ROOT, v));
  return out;
}

/** A doc comment directly followed by another one documents nothing: it was left behind by an edit. */
const noOrphanDoc = {
  meta: { type: 'problem', docs: { description: 'Forbid a JSDoc comment followed directly by another' }, schema: [] },
  create(context) {
    const source = context.sourceCode;
    return {
      Program() {
        const docs = source.getAllComments().filter((c) => c.type === 'Block' && c.value.startsWith('*'));
        for (let i = 0; i + 1 < docs.length; i++) {
          const between = source.text.slice(docs[i].range[1], docs[i + 1].range[0]);
          if (/^\s*$/.test(between)) context.report({ loc: docs[i].loc, message: 'Orphaned doc comment: another doc comment follows it' });
        }
      },
    };
  },
};

const noCycle = {
  meta: { type: 'problem', docs: { description: 'Forbid import cycles, type-only imports included' }, schema: [] },
  create(context) {
    const file = context.physicalFilename;
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const graph = importGraph();
      const members = graph.component.get(file);
      const target = path.resolve(path.dirname(file), source.value);
      if (!members || !members.has(target)) return;
      context.report({
        node: source,
        message: `Import cycle: ${[path.relative(ROOT, file), ...cyclePath(graph, target, file)].join(' → ')}`,
      });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// ---------------------------------------------------------------------------------------------------------

export default tseslint.config(
  {
    ignores: [
      'src/generated/**',
      'src/runner/gen/**',
      'prisma/postgresql/**',
      'prisma/sqlite/**',
      'prisma/migrations/**',
      'data/**',
      'coverage/**',
      'dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    plugins: { 'import-x': importX, forgegraph: { rules: { 'no-cycle': noCycle, 'no-orphan-doc': noOrphanDoc } } },
    rules: {
      // `const { omitted: _, ...rest } = row` is how a field is dropped.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      'import-x/no-duplicates': 'error',
      'import-x/no-self-import': 'error',
      'import-x/first': 'error',
      'forgegraph/no-orphan-doc': 'error',
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.js'],
    plugins: { boundaries },
    settings: {
      'boundaries/files': layers,
      'boundaries/files-single-match': true,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
      'boundaries/no-unknown-files': 'error',
      'forgegraph/no-cycle': 'error',
    },
  },
  ...ownership,
);
