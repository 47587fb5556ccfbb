import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { createServiceContext } from '../../src/services/context.ts';
import * as orgService from '../../src/services/org/org.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

interface LabelOut {
  id?: string;
  name?: string;
  color?: string;
  description?: string | null;
  isExclusive?: boolean;
  exclusiveScope?: string | null;
  isArchived?: boolean;
  url?: string;
  databaseId?: number;
}
interface Conn<N> {
  totalCount?: number;
  nodes: N[];
  edges?: { note: string; blockedAt: string; node: N }[];
}
/** A mutation's payload (null when refused) and its refusal (null when it succeeded). */
interface Result<P> {
  payload: (P & { __typename: string }) | null;
  error: MutationError | null;
}

describe.each(PROVIDERS)('GraphQL labels and blocks (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const orgs: Record<string, Models.User> = {};

  async function org(name: string, owner: Models.User, visibility: Models.Visibility, members: Models.User[] = []): Promise<Models.User> {
    const o = await orgService.createOrg(createServiceContext(t.app.deps, owner), { name, visibility });
    for (const m of members) await t.db.orgUser.create({ data: { orgId: o.id, userId: m.id } });
    return o;
  }

  async function mutate<P>(name: string, fields: string, input: Record<string, unknown>, viewer: string): Promise<Result<P>> {
    const payload = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${payload}Input!) { ${name}(input: $input) { __typename ${fields} } }`;
    const res = await gql<Record<string, (P & { __typename: string }) | null>>(t, q, { variables: { input }, headers: as(viewer) });
    const error = mutationError(res, name);
    const result = res.data?.[name] ?? null;
    if (!error && !result) throw new Error(`no ${name} result: ${JSON.stringify(res)}`);
    return { payload: result, error };
  }

  const orgLabels = async (login: string, viewer: string, args = 'first: 50') => {
    const res = await gql<{ organization: { labels: Conn<LabelOut> } | null }>(
      t,
      `{ organization(login: "${login}") { labels(${args}) { totalCount nodes { name color isExclusive exclusiveScope isArchived description url } } } }`,
      { headers: as(viewer) },
    );
    expect(res.errors).toBeUndefined();
    return res.data?.organization?.labels ?? null;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'member', 'outsider', 'pest']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    orgs.pub = await org('gpub', users.owner!, 'PUBLIC', [users.member!]);
    orgs.priv = await org('gpriv', users.owner!, 'PRIVATE', [users.member!]);
    await t.db.label.createMany({
      data: [
        { orgId: orgs.pub.id, name: 'zeta', color: 'aaaaaa', numIssues: 1 },
        { orgId: orgs.pub.id, name: 'kind/bug', color: 'ee0701', exclusive: true, description: 'a bug', numIssues: 7 },
        { orgId: orgs.pub.id, name: 'Alpha', color: '00ff00', archivedAt: new Date(), numIssues: 3 },
        { orgId: orgs.priv.id, name: 'hush', color: '000000' },
      ],
    });
  });
  afterAll(() => t.close());

  describe('Organization.labels and Organization.label', () => {
    it('lists labels in creation order by default, with totalCount and GitHub-style fields', async () => {
      const conn = await orgLabels('gpub', 'anon');
      expect(conn?.totalCount).toBe(3);
      expect(conn?.nodes).toEqual([
        {
          name: 'zeta',
          color: 'aaaaaa',
          isExclusive: false,
          exclusiveScope: null,
          isArchived: false,
          description: null,
          url: 'http://localhost:3000/org/gpub/settings/labels',
        },
        {
          name: 'kind/bug',
          color: 'ee0701',
          isExclusive: true,
          exclusiveScope: 'kind',
          isArchived: false,
          description: 'a bug',
          url: 'http://localhost:3000/org/gpub/settings/labels',
        },
        {
          name: 'Alpha',
          color: '00ff00',
          isExclusive: false,
          exclusiveScope: null,
          isArchived: true,
          description: null,
          url: 'http://localhost:3000/org/gpub/settings/labels',
        },
      ]);
    });

    it.each([
      ['orderBy: {field: NAME, direction: ASC}', ['Alpha', 'kind/bug', 'zeta']],
      ['orderBy: {field: NAME, direction: DESC}', ['zeta', 'kind/bug', 'Alpha']],
      ['orderBy: {field: ISSUE_COUNT, direction: DESC}', ['kind/bug', 'Alpha', 'zeta']],
      ['orderBy: {field: CREATED_AT, direction: DESC}', ['Alpha', 'kind/bug', 'zeta']],
    ])('orders by %s', async (args, expected) => {
      expect((await orgLabels('gpub', 'outsider', `first: 10, ${args}`))?.nodes.map((n) => n.name)).toEqual(expected);
    });

    it('filters by query (case-insensitive), counting only matches, and pages', async () => {
      const conn = await orgLabels('gpub', 'outsider', 'first: 10, query: "ALP"');
      expect(conn).toMatchObject({ totalCount: 1, nodes: [{ name: 'Alpha' }] });
      const page = await orgLabels('gpub', 'outsider', 'first: 2');
      expect(page?.nodes).toHaveLength(2);
      expect(page?.totalCount).toBe(3);
    });

    it('minimal selections still load (no empty Prisma select)', async () => {
      const res = await gql<unknown>(
        t,
        '{ organization(login: "gpub") { labels(first: 1) { edges { cursor } nodes { __typename } } label(name: "zeta") { __typename } } }',
      );
      expect(res.errors).toBeUndefined();
      expect(res.data).toMatchObject({ organization: { labels: { nodes: [{ __typename: 'Label' }] }, label: { __typename: 'Label' } } });
    });

    it('label(name:) finds the exact name, or null', async () => {
      const res = await gql<{ organization: { a: LabelOut | null; b: LabelOut | null } }>(
        t,
        '{ organization(login: "gpub") { a: label(name: "kind/bug") { name databaseId } b: label(name: "kind") { name } } }',
      );
      expect(res.data?.organization.a?.name).toBe('kind/bug');
      expect(res.data?.organization.b).toBeNull();
    });

    it('a private organization and its labels are invisible to outsiders, visible to members and admins', async () => {
      expect(await orgLabels('gpriv', 'outsider')).toBeNull();
      expect(await orgLabels('gpriv', 'anon')).toBeNull();
      expect((await orgLabels('gpriv', 'member'))?.nodes.map((n) => n.name)).toEqual(['hush']);
      expect((await orgLabels('gpriv', 'root'))?.nodes.map((n) => n.name)).toEqual(['hush']);
    });

    it('node(id:) honours organization visibility', async () => {
      const hush = await t.db.label.findFirstOrThrow({ where: { name: 'hush' } });
      const q = `{ node(id: "${encodeGlobalID('Label', hush.id)}") { ... on Label { name organization { login } } } }`;
      expect((await gql<{ node: LabelOut | null }>(t, q, { headers: as('outsider') })).data?.node).toBeNull();
      expect((await gql<{ node: LabelOut | null }>(t, q)).data?.node).toBeNull();
      expect((await gql<{ node: LabelOut | null }>(t, q, { headers: as('member') })).data?.node).toEqual({
        name: 'hush',
        organization: { login: 'gpriv' },
      });
    });

    it('the SQL statement count does not grow with the number of labels (3 vs 30)', async () => {
      const o = await org('gcount', users.owner!, 'PUBLIC');
      const query = '{ organization(login: "gcount") { labels(first: 50) { nodes { name } } } }';
      const measure = async () => {
        t.queries.length = 0;
        const res = await gql<{ organization: { labels: Conn<LabelOut> } }>(t, query, { headers: as('owner') });
        expect(res.errors).toBeUndefined();
        const labelQueries = t.queries.filter((q) => /FROM "?`?(public|main)"?`?\."?`?Label"?`? /.test(q)).length;
        return { count: t.queries.length, labelQueries, n: res.data?.organization.labels.nodes.length };
      };
      await t.db.label.createMany({ data: Array.from({ length: 3 }, (_, i) => ({ orgId: o.id, name: `l${i}`, color: 'ffffff' })) });
      const three = await measure();
      await t.db.label.createMany({ data: Array.from({ length: 27 }, (_, i) => ({ orgId: o.id, name: `m${i}`, color: 'ffffff' })) });
      const thirty = await measure();
      expect([three.n, thirty.n]).toEqual([3, 30]);
      expect(thirty.count).toBe(three.count);
      console.log(`[${provider}] labels(first: 50): ${three.count} statements for 3, ${thirty.count} for 30`);
      // Authentication, the organization and the viewer's standing in it, then one statement for the labels.
      expect([three.labelQueries, thirty.labelQueries]).toEqual([1, 1]);
      expect(three.count).toBeLessThanOrEqual(8);
    });
  });

  describe('label mutations', () => {
    it('createLabel normalises the colour; owners only; typed errors', async () => {
      const ok = await mutate<{ label: LabelOut }>(
        'createLabel',
        'label { id name color isExclusive databaseId }',
        { organizationLogin: 'gpub', name: 'area/api', color: '#ABC', isExclusive: true },
        'owner',
      );
      expect(ok.error).toBeNull();
      expect(ok.payload).toMatchObject({
        __typename: 'CreateLabelPayload',
        label: { name: 'area/api', color: 'aabbcc', isExclusive: true },
      });
      const rest = await t.request('GET', `/api/v1/orgs/gpub/labels/${ok.payload?.label.databaseId}`, { headers: as('outsider') });
      expect(rest.json()).toMatchObject({ name: 'area/api', color: 'aabbcc', exclusive: true });
      expect(
        (await mutate('createLabel', 'label { id }', { organizationLogin: 'gpub', name: 'x', color: '#12345g' }, 'owner')).error,
      ).toMatchObject({
        code: 'VALIDATION',
        message: 'invalid color: #12345g',
      });
      expect(
        (await mutate('createLabel', 'label { id }', { organizationLogin: 'gpub', name: 'x', color: 'fff' }, 'member')).error,
      ).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: 'Must be an organization owner',
      });
      expect(
        (await mutate('createLabel', 'label { id }', { organizationLogin: 'gpriv', name: 'x', color: 'fff' }, 'outsider')).error,
      ).toMatchObject({ code: 'NOT_FOUND' });
      expect(
        (await mutate('createLabel', 'label { id }', { organizationLogin: 'gpub', name: 'x', color: 'fff' }, 'anon')).error,
      ).toMatchObject({
        code: 'UNAUTHENTICATED',
      });
      expect((await mutate('createLabel', 'label { id }', { name: 'x', color: 'fff' }, 'owner')).error).toMatchObject({
        code: 'VALIDATION',
        field: 'organizationLogin',
      });
      expect(
        (await mutate('createLabel', 'label { id }', { organizationLogin: 'gpub', name: '', color: 'fff' }, 'owner')).error,
      ).toMatchObject({
        code: 'VALIDATION',
        field: 'name',
      });
    });

    it('updateLabel and deleteLabel by global id; admins may; other types and invisible labels are NotFound', async () => {
      const created = await mutate<{ label: LabelOut }>(
        'createLabel',
        'label { id }',
        { organizationLogin: 'gpriv', name: 'tmp', color: '123' },
        'root',
      );
      const id = created.payload?.label.id;
      const upd = await mutate<{ label: LabelOut }>(
        'updateLabel',
        'label { name color isArchived description }',
        { id, name: 'tmp2', isArchived: true, description: 'd' },
        'owner',
      );
      expect(upd.payload?.label).toEqual({ name: 'tmp2', color: '112233', isArchived: true, description: 'd' });
      expect((await mutate('updateLabel', 'label { id }', { id, name: 'nope' }, 'member')).error).toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      expect((await mutate('updateLabel', 'label { id }', { id, name: 'nope' }, 'outsider')).error).toMatchObject({ code: 'NOT_FOUND' });
      expect(
        (await mutate('updateLabel', 'label { id }', { id: encodeGlobalID('User', users.owner!.id), name: 'nope' }, 'owner')).error,
      ).toMatchObject({ code: 'NOT_FOUND' });
      expect((await mutate('deleteLabel', 'deletedLabelId', { id }, 'outsider')).error).toMatchObject({ code: 'NOT_FOUND' });
      expect(await mutate('deleteLabel', 'deletedLabelId', { id }, 'owner')).toEqual({
        payload: { __typename: 'DeleteLabelPayload', deletedLabelId: id },
        error: null,
      });
      expect((await mutate('deleteLabel', 'deletedLabelId', { id }, 'owner')).error).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('blocks', () => {
    const blocked = async (path: string, viewer: string) => {
      const res = await gql<Record<string, { blockedUsers: Conn<{ login: string }> | null } | null>>(
        t,
        `{ ${path} { blockedUsers(first: 10) { totalCount nodes { login } edges { note blockedAt node { login } } } } }`,
        { headers: as(viewer) },
      );
      expect(res.errors).toBeUndefined();
      return Object.values(res.data ?? {})[0]?.blockedUsers;
    };

    it('blockUser / unblockUser for the viewer, visible in viewer.blockedUsers only', async () => {
      const r = await mutate<{ blockedUser: { login: string }; blocker: { login: string } }>(
        'blockUser',
        'blockedUser { login } blocker { login }',
        { login: 'pest', note: 'why' },
        'member',
      );
      expect(r.payload).toMatchObject({ __typename: 'BlockUserPayload', blockedUser: { login: 'pest' }, blocker: { login: 'member' } });
      const mine = await blocked('viewer', 'member');
      expect(mine).toMatchObject({ totalCount: 1, nodes: [{ login: 'pest' }], edges: [{ note: 'why', node: { login: 'pest' } }] });
      const nodesOnly = await gql<{ viewer: { blockedUsers: Conn<{ login: string; name: string | null }> } }>(
        t,
        '{ viewer { blockedUsers { nodes { login name } } } }',
        { headers: as('member') },
      );
      expect(nodesOnly.errors).toBeUndefined();
      expect(nodesOnly.data?.viewer.blockedUsers.nodes).toEqual([{ login: 'pest', name: null }]);
      expect(await blocked('user(login: "member")', 'outsider')).toBeNull();
      expect(await blocked('user(login: "member")', 'anon')).toBeNull();
      expect((await blocked('user(login: "member")', 'root'))?.totalCount).toBe(1);
      expect((await mutate('blockUser', 'blocker { login }', { login: 'pest' }, 'member')).error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'cannot block the user',
      });
      expect((await mutate('blockUser', 'blocker { login }', { login: 'gpub' }, 'member')).error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'cannot block an organization',
      });
      expect((await mutate('unblockUser', 'unblockedUser { login }', { login: 'pest' }, 'member')).payload).toMatchObject({
        __typename: 'UnblockUserPayload',
        unblockedUser: { login: 'pest' },
      });
      expect((await blocked('viewer', 'member'))?.totalCount).toBe(0);
    });

    it('organization blocks: owners act and see them; members get PermissionDenied and null', async () => {
      expect((await mutate('blockUser', 'blocker { login }', { login: 'pest', organizationLogin: 'gpub' }, 'member')).error).toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      expect((await mutate('blockUser', 'blocker { login }', { login: 'pest', organizationLogin: 'gpub' }, 'owner')).payload).toMatchObject(
        {
          blocker: { login: 'gpub' },
        },
      );
      expect((await mutate('blockUser', 'blocker { login }', { login: 'member', organizationLogin: 'gpub' }, 'owner')).error).toMatchObject(
        {
          code: 'INVALID_ARGUMENT',
        },
      );
      expect((await blocked('organization(login: "gpub")', 'owner'))?.nodes).toEqual([{ login: 'pest' }]);
      expect(await blocked('organization(login: "gpub")', 'member')).toBeNull();
      expect((await blocked('organization(login: "gpub")', 'root'))?.totalCount).toBe(1);
    });
  });
});
