import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

type Headers = Record<string, string>;
interface OrgOut {
  __typename?: string;
  id?: string;
  login?: string;
  email?: string | null;
  description?: string | null;
  visibility?: string;
}
/** A mutation's outcome: the payload (`<Name>Payload`) or, for a refused mutation, the error at its path. */
interface Result<P> {
  payload: (P & { __typename: string }) | null;
  error: MutationError | null;
}
interface MembersOut {
  totalCount: number;
  edges: { role: string; node: { login: string } }[];
}

describe.each(PROVIDERS)('GraphQL organizations (%s)', (provider) => {
  let t: TestApp;
  const u: Record<string, Models.User> = {};
  const ANON: Headers = {};

  async function org(login: string, headers: Headers): Promise<OrgOut | null | undefined> {
    const res = await gql<{ organization: OrgOut | null }>(
      t,
      'query($l: String!) { organization(login: $l) { id login email visibility } }',
      { variables: { l: login }, headers },
    );
    expect(res.errors).toBeUndefined();
    return res.data?.organization;
  }

  /** Runs `name(input: $input)` selecting `fields` on `<Name>Payload`, and returns the payload or the refusal. */
  async function mutate<P>(name: string, fields: string, input: Record<string, unknown>, headers: Headers): Promise<Result<P>> {
    const type = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${type}Input!) { ${name}(input: $input) { __typename ${fields} } }`;
    const res = await gql<Record<string, Result<P>['payload']>>(t, q, { variables: { input }, headers });
    const error = mutationError(res, name);
    const payload = res.data?.[name] ?? null;
    if (!error && !payload) throw new Error(`no ${name} result`);
    return { payload, error };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const name of ['gboss', 'gpub', 'gpriv', 'gout']) u[name] = await t.createUser(name);
    u.gadm = await t.createUser('gadm', { admin: true });
    const boss = u.gboss as Models.User;
    const pub = await createOrgAs(t, boss, 'gpublic', 'PUBLIC');
    await t.db.user.update({ where: { id: pub.id }, data: { email: 'org@gpublic.test' } });
    await addMember(t, pub, u.gpub as Models.User, { isPublic: true });
    await addMember(t, pub, u.gpriv as Models.User);
    await createOrgAs(t, boss, 'glimited', 'LIMITED');
    const secret = await createOrgAs(t, boss, 'gsecret', 'PRIVATE');
    await addMember(t, secret, u.gpriv as Models.User);
  });
  afterAll(() => t.close());

  it.each([
    ['gpublic', [true, true, true, true]],
    ['glimited', [false, true, true, true]],
    ['gsecret', [false, false, true, true]],
    ['nosuchorg', [false, false, false, false]],
    ['gboss', [false, false, false, false]], // a user is not an organization
  ] as const)('organization(login: %s) for anonymous, outsider, member, admin', async (login, want) => {
    const viewers = [ANON, basic('gout'), basic('gpriv'), basic('gadm')];
    const got = await Promise.all(viewers.map((h) => org(login, h)));
    expect(got.map((o) => o?.login === login)).toEqual(want);
    for (const o of got) if (o) expect(o).not.toBeNull();
    expect(got.filter((o, i) => !want[i] && o !== null)).toEqual([]);
  });

  it('the e-mail is hidden from anonymous viewers (as REST)', async () => {
    expect((await org('gpublic', ANON))?.email).toBeNull();
    expect((await org('gpublic', basic('gout')))?.email).toBe('org@gpublic.test');
  });

  it('node(id:) of a private organization: null for outsiders, present for members', async () => {
    const id = (await org('gsecret', basic('gadm')))?.id;
    if (!id) throw new Error('no id');
    const node = (headers: Headers) =>
      gql<{ node: OrgOut | null }>(t, 'query($id: ID!) { node(id: $id) { __typename ... on Organization { login } } }', {
        variables: { id },
        headers,
      });
    expect((await node(ANON)).data?.node).toBeNull();
    expect((await node(basic('gout'))).data?.node).toBeNull();
    expect((await node(basic('gpriv'))).data?.node).toEqual({ __typename: 'Organization', login: 'gsecret' });
    expect((await node(basic('gadm'))).data?.node).toEqual({ __typename: 'Organization', login: 'gsecret' });
  });

  it.each([
    ['gboss', ANON, { __typename: 'User', login: 'gboss' }],
    ['GPUBLIC', ANON, { __typename: 'Organization', login: 'gpublic' }],
    ['glimited', ANON, null],
    ['glimited', basic('gout'), { __typename: 'Organization', login: 'glimited' }],
    ['gsecret', basic('gout'), null],
    ['gsecret', basic('gpriv'), { __typename: 'Organization', login: 'gsecret' }],
    ['nobody', basic('gadm'), null],
  ])('repositoryOwner(login: %s)', async (login, headers, want) => {
    const res = await gql<{ repositoryOwner: unknown }>(t, 'query($l: String!) { repositoryOwner(login: $l) { __typename login } }', {
      variables: { l: login },
      headers,
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.repositoryOwner).toEqual(want);
  });

  it.each([
    ['anonymous', ANON, ['gpublic']],
    ['an outsider', basic('gout'), ['gpublic', 'glimited']],
    ['a member of the private org', basic('gpriv'), ['gpublic', 'glimited']],
    ['a site admin', basic('gadm'), ['gpublic', 'glimited', 'gsecret']],
  ])('organizations as %s', async (_label, headers, want) => {
    const res = await gql<{ organizations: { totalCount: number; nodes: { login: string }[] } }>(
      t,
      '{ organizations(first: 10) { totalCount nodes { login } } }',
      { headers },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.organizations).toEqual({ totalCount: want.length, nodes: want.map((login) => ({ login })) });
  });

  it.each([
    [
      'a member',
      basic('gpub'),
      [
        ['gboss', 'ADMIN'],
        ['gpub', 'MEMBER'],
        ['gpriv', 'MEMBER'],
      ],
    ],
    [
      'a site admin',
      basic('gadm'),
      [
        ['gboss', 'ADMIN'],
        ['gpub', 'MEMBER'],
        ['gpriv', 'MEMBER'],
      ],
    ],
    ['an outsider', basic('gout'), [['gpub', 'MEMBER']]],
    ['anonymous', ANON, [['gpub', 'MEMBER']]],
  ])('membersWithRole as %s', async (_label, headers, want) => {
    const q = '{ organization(login: "gpublic") { membersWithRole(first: 10) { totalCount edges { role node { login } } } } }';
    const res = await gql<{ organization: { membersWithRole: MembersOut } }>(t, q, { headers });
    expect(res.errors).toBeUndefined();
    const m = res.data?.organization.membersWithRole;
    expect(m?.edges.map((e) => [e.node.login, e.role])).toEqual(want);
    expect(m?.totalCount).toBe(want.length);
  });

  it('membersWithRole pages, with totalCount of the whole list', async () => {
    const q = '{ organization(login: "gpublic") { membersWithRole(first: 2) { totalCount pageInfo { hasNextPage } nodes { login } } } }';
    const res = await gql<{
      organization: { membersWithRole: { totalCount: number; pageInfo: { hasNextPage: boolean }; nodes: { login: string }[] } };
    }>(t, q, { headers: basic('gboss') });
    expect(res.data?.organization.membersWithRole).toEqual({
      totalCount: 3,
      pageInfo: { hasNextPage: true },
      nodes: [{ login: 'gboss' }, { login: 'gpub' }],
    });
    // A node selecting a relation next to an interface field still gets its columns (login).
    const nested = await gql<{ organization: { membersWithRole: { edges: { node: { login: string } }[] } } }>(
      t,
      '{ organization(login: "gpublic") { membersWithRole(first: 1) { edges { node { login organizations(first: 1) { totalCount } } } } } }',
      { headers: basic('gadm') },
    );
    expect(nested.errors).toBeUndefined();
    expect(nested.data?.organization.membersWithRole.edges.map((e) => e.node.login)).toEqual(['gboss']);
    // Selecting no node at all (only the count) is fine too.
    const count = await gql<{ organization: { membersWithRole: { totalCount: number } } }>(
      t,
      '{ organization(login: "gpublic") { membersWithRole(first: 1) { totalCount } } }',
      { headers: basic('gout') },
    );
    expect(count.errors).toBeUndefined();
    expect(count.data?.organization.membersWithRole.totalCount).toBe(1);
  });

  describe('mutations', () => {
    it('createOrganization: the viewer owns the new organization; REST sees it', async () => {
      const r = await mutate<{ organization: OrgOut }>(
        'createOrganization',
        'clientMutationId organization { login visibility description }',
        { login: 'gnew', description: 'fresh', visibility: 'LIMITED', clientMutationId: 'c1' },
        basic('gout'),
      );
      expect(r).toEqual({
        payload: {
          __typename: 'CreateOrganizationPayload',
          clientMutationId: 'c1',
          organization: { login: 'gnew', visibility: 'LIMITED', description: 'fresh' },
        },
        error: null,
      });
      const rest = await t.request('GET', '/api/v1/orgs/gnew/members', { headers: basic('gout') });
      expect(rest.json().map((m: { login: string }) => m.login)).toEqual(['gout']);
    });

    it.each([
      [
        'a taken name (any case)',
        { login: 'GPUBLIC' },
        basic('gout'),
        { code: 'VALIDATION', message: 'user already exists [name: GPUBLIC]' },
      ],
      ['a bad login', { login: 'bad name' }, basic('gout'), { code: 'VALIDATION', message: 'invalid username', field: 'login' }],
      ['a bad website', { login: 'gweb', websiteUrl: 'nope' }, basic('gout'), { code: 'VALIDATION', field: 'websiteUrl' }],
      ['a reserved name', { login: 'api' }, basic('gout'), { code: 'VALIDATION', message: 'name is reserved [name: api]' }],
      ['anonymous', { login: 'ganon' }, ANON, { code: 'UNAUTHENTICATED' }],
    ])('createOrganization with %s is refused', async (_label, input, headers, want) => {
      expect((await mutate('createOrganization', 'organization { login }', input, headers)).error).toMatchObject(want);
    });

    it('createOrganization is PERMISSION_DENIED for a user who may not create organizations', async () => {
      await t.db.user.update({ where: { id: u.gpub?.id ?? 0 }, data: { allowCreateOrganization: false } });
      expect((await mutate('createOrganization', 'organization { login }', { login: 'gnope' }, basic('gpub'))).error).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: 'not allowed to create org',
      });
      await t.db.user.update({ where: { id: u.gpub?.id ?? 0 }, data: { allowCreateOrganization: true } });
    });

    it('updateOrganization: owners change only given fields; members are denied; invisible orgs are not found', async () => {
      const ok = await mutate<{ organization: OrgOut }>(
        'updateOrganization',
        'organization { login description visibility }',
        { login: 'gpublic', description: 'updated' },
        basic('gboss'),
      );
      expect(ok).toEqual({
        payload: {
          __typename: 'UpdateOrganizationPayload',
          organization: { login: 'gpublic', description: 'updated', visibility: 'PUBLIC' },
        },
        error: null,
      });
      expect(
        (await mutate('updateOrganization', 'organization { login }', { login: 'gpublic', description: 'x' }, basic('gpub'))).error,
      ).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: 'Must be an organization owner',
      });
      expect(
        (await mutate('updateOrganization', 'organization { login }', { login: 'gsecret', description: 'x' }, basic('gout'))).error,
      ).toMatchObject({ code: 'NOT_FOUND' });
      expect(
        (await mutate('updateOrganization', 'organization { login }', { login: 'gpublic', websiteUrl: 'nope' }, basic('gboss'))).error,
      ).toMatchObject({ code: 'VALIDATION', field: 'websiteUrl' });
      expect((await t.request('GET', '/api/v1/orgs/gpublic')).json().description).toBe('updated');
    });

    it('deleteOrganization: owners only; then the organization is gone', async () => {
      expect((await mutate('deleteOrganization', 'deletedLogin', { login: 'gnew' }, basic('gpub'))).error).toMatchObject({
        code: 'PERMISSION_DENIED',
      });
      expect((await mutate('deleteOrganization', 'deletedLogin', { login: 'gsecret' }, basic('gout'))).error).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect(await mutate('deleteOrganization', 'deletedLogin', { login: 'gnew' }, basic('gout'))).toEqual({
        payload: { __typename: 'DeleteOrganizationPayload', deletedLogin: 'gnew' },
        error: null,
      });
      expect(await org('gnew', basic('gadm'))).toBeNull();
    });
  });
});

const ORGS_WITH_MEMBERS =
  '{ organizations(first: 50) { nodes { login membersWithRole(first: 20) { totalCount edges { role node { login } } } } } }';

describe.each(PROVIDERS)('GraphQL organizations → membersWithRole statement count (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  const members: Models.User[] = [];
  const orgs: Models.User[] = [];

  /** Grows to `nOrgs` organizations, each with the owner and `nMembers - 1` more members. */
  async function growTo(nOrgs: number, nMembers: number): Promise<void> {
    while (members.length < nMembers - 1) members.push(await t.createUser(`cm${String(members.length).padStart(2, '0')}`));
    while (orgs.length < nOrgs) orgs.push(await createOrgAs(t, owner, `corg${String(orgs.length).padStart(2, '0')}`));
    for (const o of orgs) {
      const have = await t.db.orgUser.count({ where: { orgId: o.id } });
      for (const m of members.slice(have - 1, nMembers - 1)) await addMember(t, o, m, { isPublic: true });
    }
  }

  async function count(nOrgs: number, nMembers: number): Promise<{ statements: number; sql: string[] }> {
    t.queries.length = 0;
    const res = await gql<{ organizations: { nodes: { login: string; membersWithRole: MembersOut }[] } }>(t, ORGS_WITH_MEMBERS, {
      headers: basic('cadmin'),
    });
    const sql = [...t.queries];
    expect(res.errors).toBeUndefined();
    const nodes = res.data?.organizations.nodes ?? [];
    expect(nodes.map((n) => n.login)).toEqual(orgs.slice(0, nOrgs).map((o) => o.name));
    const want = [['cowner', 'ADMIN'], ...members.slice(0, nMembers - 1).map((m) => [m.name, 'MEMBER'])];
    for (const n of nodes) {
      expect(n.membersWithRole.totalCount).toBe(nMembers);
      expect(n.membersWithRole.edges.map((e) => [e.node.login, e.role])).toEqual(want);
    }
    return { statements: sql.length, sql };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('cadmin', { admin: true });
    owner = await t.createUser('cowner');
  });
  afterAll(() => t.close());

  it('2 orgs × 2 members and 10 orgs × 6 members cost the same number of statements', async () => {
    await growTo(2, 2);
    const small = await count(2, 2);
    await growTo(10, 6);
    const large = await count(10, 6);
    console.info(`[${provider}] organizations → membersWithRole: ${small.statements} statements for 2×2, ${large.statements} for 10×6`);
    expect(large.statements, large.sql.join('\n')).toBe(small.statements);
    expect(small.statements, small.sql.join('\n')).toBeLessThanOrEqual(8);
  });
});

describe.each(PROVIDERS)('GraphQL organization membership mutations (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('boss');
    const member = await t.createUser('worker');
    const org = await createOrgAs(t, owner, 'shop');
    await addMember(t, org, member);
  });
  afterAll(() => t.close());

  it('a member publicizes their membership; an owner removes a member; a non-owner cannot', async () => {
    const pub = await gql<{ setOrganizationMembershipVisibility: { isPublic: boolean } | null }>(
      t,
      'mutation { setOrganizationMembershipVisibility(input: { organizationLogin: "shop", isPublic: true }) { isPublic } }',
      { headers: basic('worker') },
    );
    expect(pub.errors).toBeUndefined();
    expect(pub.data?.setOrganizationMembershipVisibility?.isPublic).toBe(true);
    expect((await t.request('GET', '/api/v1/orgs/shop/public_members/worker')).statusCode).toBe(204);

    const denied = await gql<{ removeOrganizationMember: { removedLogin: string } | null }>(
      t,
      'mutation { removeOrganizationMember(input: { organizationLogin: "shop", login: "boss" }) { removedLogin } }',
      { headers: basic('worker') },
    );
    expect(mutationError(denied, 'removeOrganizationMember')?.code).toBe('PERMISSION_DENIED');

    const removed = await gql<{ removeOrganizationMember: { removedLogin: string } | null }>(
      t,
      'mutation { removeOrganizationMember(input: { organizationLogin: "shop", login: "worker" }) { removedLogin } }',
      { headers: basic('boss') },
    );
    expect(removed.errors).toBeUndefined();
    expect(removed.data?.removeOrganizationMember?.removedLogin).toBe('worker');
    expect((await t.request('GET', '/api/v1/orgs/shop/members/worker', { headers: basic('boss') })).statusCode).toBe(404);
  });
});
