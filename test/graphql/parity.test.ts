import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccessFixture, gid, VIEWERS, type AccessFixture, type Viewer } from '../helpers/accessFixture.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

/** What a door shows: the names of the things present (sorted) and how many it says there are. */
interface Seen {
  items: string[];
  total: number;
}

/** One REST read and its GraphQL twin, with what a few viewers must see (so both doors cannot be wrong alike). */
interface Row {
  name: string;
  rest: (v: Viewer) => Promise<Seen>;
  graphql: (v: Viewer) => Promise<Seen>;
  expect: Partial<Record<Viewer, string[]>>;
  /** Why every viewer sees the same here (otherwise a row must tell viewers apart). */
  sameForAll?: string;
}

/** Error codes GraphQL may answer instead of data for something the viewer may not read. */
const ACCESS_CODES = ['NOT_FOUND', 'PERMISSION_DENIED', 'UNAUTHENTICATED', 'FORBIDDEN'];

const NONE: Seen = { items: [], total: 0 };

/** A value at a dotted path of a JSON value (undefined when any step is missing). */
function dig(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

const text = (value: unknown, path: string): string => String(dig(value, path));

/**
 * Table-driven parity of the two doors (issue #10): for each REST read and its GraphQL twin, every viewer —
 * anonymous, a signed-in outsider, a restricted user, a team reader, a code-only and an issues-only team member, a
 * public-only token — sees the same things, in the same number. A REST 401/403/404 is "nothing".
 */
describe.each(PROVIDERS)('REST and GraphQL show the same things (%s)', (provider) => {
  let t: TestApp;
  let f: AccessFixture;

  async function rest(v: Viewer, path: string): Promise<{ status: number; body: unknown; total: number | null }> {
    const res = await t.request('GET', `/api/v1${path}`, { headers: f.headers[v] });
    expect(res.statusCode, `${v} GET ${path}: ${res.body}`).toBeLessThan(500);
    const header = res.headers['x-total-count'];
    return { status: res.statusCode, body: res.statusCode < 300 ? res.json() : null, total: header === undefined ? null : Number(header) };
  }

  /** A REST list: names of the items and X-Total-Count; nothing when refused. */
  const restList =
    (path: string | (() => string), name: string) =>
    async (v: Viewer): Promise<Seen> => {
      const r = await rest(v, typeof path === 'string' ? path : path());
      if (r.status >= 400) return NONE;
      const items = (r.body as unknown[]).map((x) => text(x, name)).sort();
      return { items, total: r.total ?? items.length };
    };

  /** A REST read of one thing: its name, or nothing when refused. */
  const restOne =
    (path: string | (() => string), name: string) =>
    async (v: Viewer): Promise<Seen> => {
      const r = await rest(v, typeof path === 'string' ? path : path());
      return r.status >= 400 ? NONE : { items: [text(r.body, name)], total: 1 };
    };

  async function query(v: Viewer, document: string, variables?: Record<string, unknown>): Promise<unknown> {
    const res = await gql<unknown>(t, document, { headers: f.headers[v], variables });
    for (const e of res.errors ?? []) expect(ACCESS_CODES, `${v}: ${e.message}`).toContain(e.extensions?.code);
    return res.data;
  }

  /** A GraphQL connection at `path`: names of its nodes and its totalCount; nothing when a parent is null. */
  const gqlConn =
    (document: string, path: string, name: string, variables?: () => Record<string, unknown>) =>
    async (v: Viewer): Promise<Seen> => {
      const conn = dig(await query(v, document, variables?.()), path) as { totalCount: number; nodes: unknown[] } | null | undefined;
      if (!conn) return NONE;
      return { items: conn.nodes.map((n) => text(n, name)).sort(), total: conn.totalCount };
    };

  /** A GraphQL object at `path`: its name, or nothing when null. */
  const gqlOne =
    (document: string, path: string, name: string, variables?: () => Record<string, unknown>) =>
    async (v: Viewer): Promise<Seen> => {
      const node = dig(await query(v, document, variables?.()), path);
      return node ? { items: [text(node, name)], total: 1 } : NONE;
    };

  const repoConn = (repo: string, field: string, name: string, args = '') =>
    gqlConn(
      `{ repository(owner: "acorg", name: "${repo}") { ${field}(first: 50${args}) { totalCount nodes { ${name} } } } }`,
      `repository.${field}`,
      name,
    );

  /** The teams of acorg a viewer reads one by one through GET /teams/{id}, as a list. */
  async function readableTeamsByRest(v: Viewer): Promise<Seen> {
    const teams = await t.db.team.findMany({ where: { org: { lowerName: 'acorg' } }, select: { id: true } });
    const items: string[] = [];
    for (const { id } of teams) {
      const r = await rest(v, `/teams/${id}`);
      if (r.status < 300) items.push(text(r.body, 'name'));
    }
    return { items: items.sort(), total: items.length };
  }

  /** REST has no issue counts on labels: the twin of Label.issueCount is the issue search's X-Total-Count. */
  const labelCountByRest = (label: string) => async (v: Viewer) => {
    const r = await rest(v, `/repos/issues/search?state=all&labels=${label}&limit=50`);
    const total = r.status >= 400 ? 0 : (r.total ?? 0);
    return { items: [String(total)], total };
  };
  const labelCountByGraphql = (document: string, path: string) => async (v: Viewer) => {
    const count = dig(await query(v, document), path);
    const total = typeof count === 'number' ? count : 0;
    return { items: [String(total)], total };
  };

  const rows: Row[] = [
    {
      name: 'repository acorg/secret',
      rest: restOne('/repos/acorg/secret', 'full_name'),
      graphql: gqlOne('{ repository(owner: "acorg", name: "secret") { nameWithOwner } }', 'repository', 'nameWithOwner'),
      expect: { anonymous: [], outsider: [], reader: ['acorg/secret'], coder: ['acorg/secret'], publicOnly: [] },
    },
    {
      name: 'repository aclim/open (a public repository of a limited organization)',
      rest: restOne('/repos/aclim/open', 'full_name'),
      graphql: gqlOne('{ repository(owner: "aclim", name: "open") { nameWithOwner } }', 'repository', 'nameWithOwner'),
      expect: { anonymous: [], outsider: ['aclim/open'], restricted: [], publicOnly: [] },
    },
    {
      name: 'repository acorg/secret by id (/repositories/{id} and node(id:))',
      rest: restOne(() => `/repositories/${f.ids['acorg/secret']}`, 'full_name'),
      graphql: gqlOne('query($id: ID!) { node(id: $id) { ... on Repository { nameWithOwner } } }', 'node', 'nameWithOwner', () => ({
        id: gid('Repository', f.ids['acorg/secret'] ?? 0),
      })),
      expect: { outsider: [], issuer: ['acorg/secret'] },
    },
    {
      name: "acorg's repositories",
      rest: restList('/orgs/acorg/repos?limit=50', 'full_name'),
      graphql: gqlConn(
        '{ organization(login: "acorg") { repositories(first: 50) { totalCount nodes { nameWithOwner } } } }',
        'organization.repositories',
        'nameWithOwner',
      ),
      expect: { anonymous: ['acorg/pub'], reader: ['acorg/pub', 'acorg/secret'], publicOnly: ['acorg/pub'] },
    },
    {
      name: 'issues of acorg/secret',
      rest: restList('/repos/acorg/secret/issues?state=all&type=issues&limit=50', 'title'),
      graphql: repoConn('secret', 'issues', 'title'),
      expect: { reader: ['secret issue'], issuer: ['secret issue'], coder: [], anonymous: [] },
    },
    {
      name: 'issue acorg/secret#1',
      rest: restOne('/repos/acorg/secret/issues/1', 'title'),
      graphql: gqlOne('{ repository(owner: "acorg", name: "secret") { issue(number: 1) { title } } }', 'repository.issue', 'title'),
      expect: { reader: ['secret issue'], coder: [] },
    },
    {
      name: 'issue acorg/secret#1 by node(id:)',
      rest: restOne('/repos/acorg/secret/issues/1', 'title'),
      graphql: gqlOne('query($id: ID!) { node(id: $id) { ... on Issue { title } } }', 'node', 'title', () => ({
        id: gid('Issue', f.ids['issue:acorg/secret#1'] ?? 0),
      })),
      expect: { issuer: ['secret issue'], coder: [], publicOnly: [] },
    },
    {
      name: 'issue search (GET /repos/issues/search) and the issues of every repository',
      rest: restList('/repos/issues/search?state=all&type=issues&limit=50', 'title'),
      graphql: async (v) => {
        const parts = await Promise.all(['pub', 'secret'].map((r) => repoConn(r, 'issues', 'title')(v)));
        const items = parts.flatMap((p) => p.items).sort();
        return { items, total: parts.reduce((n, p) => n + p.total, 0) };
      },
      expect: { anonymous: ['pub issue'], coder: ['pub issue'], reader: ['pub issue', 'secret issue'] },
    },
    {
      name: 'pull requests of acorg/secret',
      rest: restList('/repos/acorg/secret/pulls?state=all&limit=50', 'title'),
      graphql: repoConn('secret', 'pullRequests', 'title'),
      expect: { reader: ['secret pull'], coder: [], issuer: [] },
    },
    {
      name: 'teams asked to review acorg/pub#2',
      rest: async (v) => {
        const r = await rest(v, '/repos/acorg/pub/pulls/2');
        const items = ((dig(r.body, 'requested_reviewers_teams') ?? []) as unknown[]).map((x) => text(x, 'name')).sort();
        return { items, total: items.length };
      },
      graphql: async (v) => {
        const data = await query(
          v,
          '{ repository(owner: "acorg", name: "pub") { pullRequest(number: 2) { reviewRequests(first: 10) { nodes { requestedReviewer { ... on Team { name } } } } } } }',
        );
        const nodes = (dig(data, 'repository.pullRequest.reviewRequests.nodes') ?? []) as unknown[];
        const items = nodes.map((n) => dig(n, 'requestedReviewer.name')).filter((x): x is string => typeof x === 'string');
        return { items: items.sort(), total: items.length };
      },
      expect: { anonymous: [], outsider: ['readers'], reader: ['readers'] },
    },
    {
      name: 'labels of acorg/secret',
      rest: restList('/repos/acorg/secret/labels?limit=50', 'name'),
      graphql: repoConn('secret', 'labels', 'name'),
      expect: { reader: ['secret-bug'], issuer: ['secret-bug'], coder: [] },
    },
    {
      name: 'issue count of the organization label',
      rest: labelCountByRest('orglabel'),
      graphql: labelCountByGraphql(
        '{ organization(login: "acorg") { label(name: "orglabel") { issueCount } } }',
        'organization.label.issueCount',
      ),
      expect: { anonymous: ['1'], coder: ['1'], reader: ['2'] },
    },
    {
      name: 'issue count of a label of acorg/secret',
      rest: labelCountByRest('secret-bug'),
      graphql: labelCountByGraphql(
        '{ repository(owner: "acorg", name: "secret") { label(name: "secret-bug") { issueCount } } }',
        'repository.label.issueCount',
      ),
      expect: { reader: ['1'], coder: ['0'] },
    },
    {
      name: 'milestones of acorg/secret',
      rest: restList('/repos/acorg/secret/milestones?state=all&limit=50', 'title'),
      graphql: repoConn('secret', 'milestones', 'title'),
      expect: { reader: ['secret milestone'], coder: [] },
    },
    {
      name: 'collaborators of acorg/pub',
      rest: restList('/repos/acorg/pub/collaborators?limit=50', 'login'),
      graphql: repoConn('pub', 'collaborators', 'login'),
      expect: { anonymous: [], outsider: ['accollab'], publicOnly: ['accollab'] },
    },
    {
      name: 'collaborators of acorg/secret',
      rest: restList('/repos/acorg/secret/collaborators?limit=50', 'login'),
      graphql: repoConn('secret', 'collaborators', 'login'),
      expect: { outsider: [], coder: ['accollab'] },
    },
    {
      name: 'branches of acorg/secret',
      rest: restList('/repos/acorg/secret/branches?limit=50', 'name'),
      graphql: repoConn('secret', 'refs', 'name', ', refPrefix: "refs/heads/"'),
      expect: { coder: ['feature', 'main'], issuer: [], anonymous: [] },
    },
    {
      name: "acorg's teams (GET /teams/{id} one by one)",
      rest: readableTeamsByRest,
      graphql: gqlConn('{ organization(login: "acorg") { teams(first: 50) { totalCount nodes { name } } } }', 'organization.teams', 'name'),
      expect: { anonymous: [], outsider: ['readers'], coder: ['Owners', 'coders', 'readers'] },
    },
    {
      name: 'the hidden team by name',
      rest: restOne(() => `/teams/${f.ids['team:hidden']}`, 'name'),
      graphql: gqlOne('{ organization(login: "acorg") { team(slug: "hidden") { name } } }', 'organization.team', 'name'),
      expect: { anonymous: [], outsider: [], reader: [] },
      sameForAll: 'only its members, the owners and site admins read a private team (test/graphql/readPolicy.test.ts shows the owner)',
    },
    {
      name: 'repositories of the readers team',
      rest: restList(() => `/teams/${f.ids['team:readers']}/repos?limit=50`, 'full_name'),
      graphql: gqlConn(
        '{ organization(login: "acorg") { team(slug: "readers") { repositories(first: 50) { totalCount nodes { nameWithOwner } } } } }',
        'organization.team.repositories',
        'nameWithOwner',
      ),
      expect: { anonymous: [], outsider: [], reader: ['acorg/secret'] },
    },
    {
      name: 'members of the readers team',
      rest: restList(() => `/teams/${f.ids['team:readers']}/members?limit=50`, 'login'),
      graphql: gqlConn(
        '{ organization(login: "acorg") { team(slug: "readers") { members(first: 50) { totalCount nodes { login } } } } }',
        'organization.team.members',
        'login',
      ),
      expect: { outsider: [], coder: ['acreader'] },
    },
    {
      name: "acorg's members",
      rest: restList('/orgs/acorg/members?limit=50', 'login'),
      graphql: gqlConn(
        '{ organization(login: "acorg") { membersWithRole(first: 50) { totalCount nodes { login } } } }',
        'organization.membersWithRole',
        'login',
      ),
      expect: { outsider: [], reader: ['accoder', 'acissuer', 'acowner', 'acreader'] },
    },
    {
      name: 'a user of limited visibility',
      rest: restOne('/users/aclimuser', 'login'),
      graphql: gqlOne('{ user(login: "aclimuser") { login } }', 'user', 'login'),
      expect: { anonymous: [], outsider: ['aclimuser'], restricted: [], publicOnly: [] },
    },
    {
      name: 'a user of limited visibility by node(id:)',
      rest: restOne('/users/aclimuser', 'login'),
      graphql: gqlOne('query($id: ID!) { node(id: $id) { ... on User { login } } }', 'node', 'login', () => ({
        id: gid('User', f.ids['user:aclimuser'] ?? 0),
      })),
      expect: { anonymous: [], reader: ['aclimuser'], publicOnly: [] },
    },
    {
      name: "acreader's organizations",
      rest: restList('/users/acreader/orgs?limit=50', 'name'),
      graphql: gqlConn(
        '{ user(login: "acreader") { organizations(first: 50) { totalCount nodes { login } } } }',
        'user.organizations',
        'login',
      ),
      expect: { outsider: [], reader: ['acorg'], publicOnly: ['acorg'] },
    },
  ];

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await buildAccessFixture(t);
    f.ids['user:aclimuser'] = (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'aclimuser' } })).id;
  }, 180_000);

  afterAll(async () => {
    f.pulls.dispose();
    await t.close();
  });

  for (const row of rows) {
    it(row.name, async () => {
      const seen: Partial<Record<Viewer, Seen>> = {};
      for (const v of VIEWERS) {
        const [byRest, byGraphql] = await Promise.all([row.rest(v), row.graphql(v)]);
        expect({ viewer: v, ...byGraphql }, `GraphQL vs REST for ${v}`).toEqual({ viewer: v, ...byRest });
        seen[v] = byRest;
      }
      for (const [v, items] of Object.entries(row.expect))
        expect({ viewer: v, items: seen[v as Viewer]?.items }).toEqual({ viewer: v, items });
      // Each row tells viewers apart: a door that showed everything (or nothing) to everyone would not pass.
      if (!row.sameForAll) expect(new Set(VIEWERS.map((v) => JSON.stringify(seen[v]))).size).toBeGreaterThan(1);
    });
  }
});
