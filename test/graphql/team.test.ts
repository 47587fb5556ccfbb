import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addTeamMember, addTeamRepo, createRepo, createTeam } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

type Headers = Record<string, string>;

interface TeamOut {
  id: string;
  name: string;
  slug?: string;
  privacy?: string;
  visibility?: string;
  permission?: string;
  units?: { unit: string; permission: string }[];
  viewerIsAMember?: boolean;
  viewerCanAdminister?: boolean;
  organization?: { login: string };
  members?: { totalCount: number; nodes: { login: string }[] };
  repositories?: { totalCount: number; nodes: { name: string; nameWithOwner?: string; isPrivate?: boolean; owner?: { login: string } }[] };
}

const TEAM_LIST = `query($org: String!) { organization(login: $org) { teams(first: 50) { totalCount nodes {
  id name slug privacy visibility permission units { unit permission } viewerIsAMember viewerCanAdminister organization { login }
  members(first: 50) { totalCount nodes { login } }
  repositories(first: 50) { totalCount nodes { name nameWithOwner isPrivate owner { login } } } } } } }`;

/** GraphQL teams: Organization.teams / team(slug:), Team, node(id:) visibility and the team mutations. */
describe.each(PROVIDERS)('GraphQL teams (%s)', (provider) => {
  let t: TestApp;
  const owner = basic('gtowner');
  const member = basic('gtmember');
  const other = basic('gtother');
  const outsider = basic('gtoutsider');
  const admin = basic('gtadmin');
  const ids: Record<string, number> = {};

  async function rest(method: string, path: string, body?: unknown, headers: Headers = owner): Promise<unknown> {
    const res = await t.request(method, `/api/v1${path}`, { headers, ...(body === undefined ? {} : { body }) });
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    return res.body ? res.json() : undefined;
  }
  async function teams(org: string, headers: Headers): Promise<TeamOut[]> {
    const res = await gql<{ organization: { teams: { totalCount: number; nodes: TeamOut[] } } }>(t, TEAM_LIST, {
      variables: { org },
      headers,
    });
    expect(res.errors).toBeUndefined();
    const conn = res.data?.organization.teams;
    expect(conn?.totalCount).toBe(conn?.nodes.length);
    return conn?.nodes ?? [];
  }
  /** Runs mutation `name` selecting `fields` of its payload: the payload (null when refused) and the refusal (null when it succeeded). */
  async function mutate<P>(
    name: string,
    fields: string,
    input: Record<string, unknown>,
    headers: Headers,
  ): Promise<{ payload: (P & { __typename: string }) | null; error: MutationError | null }> {
    const payload = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${payload}Input!) { ${name}(input: $input) { __typename ${fields} } }`;
    const res = await gql<Record<string, (P & { __typename: string }) | null>>(t, q, { variables: { input }, headers });
    const error = mutationError(res, name);
    const result = res.data?.[name] ?? null;
    if (!error && !result) throw new Error(`no ${name} result: ${JSON.stringify(res)}`);
    return { payload: result, error };
  }
  const node = async (id: string, headers: Headers) => {
    const res = await gql<{ node: { __typename: string; name?: string } | null }>(
      t,
      'query($id: ID!) { node(id: $id) { __typename ... on Team { name } ... on Repository { name } } }',
      { variables: { id }, headers },
    );
    expect(res.errors).toBeUndefined();
    return res.data?.node ?? null;
  };
  const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString('base64');

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const u of ['gtowner', 'gtmember', 'gtother', 'gtoutsider']) await t.createUser(u);
    await t.createUser('gtadmin', { admin: true });
    await rest('POST', '/orgs', { username: 'gtacme' });
    await rest('POST', '/orgs', { username: 'gtsecret', visibility: 'private' });
    const org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'gtacme' } });
    const gtowner = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'gtowner' } });
    for (const [name, isPrivate] of [
      ['pub', false],
      ['priv', true],
    ] as const) {
      ids[name] = (await createRepo(t, gtowner, name, { org, private: isPrivate })).id;
    }
    for (const [name, visibility] of [
      ['devs', 'private'],
      ['qa', 'private'],
      ['lim', 'limited'],
      ['open', 'public'],
    ] as const) {
      ids[name] = (
        (await rest('POST', '/orgs/gtacme/teams', { name, permission: 'write', units: ['repo.code'], visibility })) as { id: number }
      ).id;
    }
    ids.secretOpen = (
      (await rest('POST', '/orgs/gtsecret/teams', { name: 'open', permission: 'read', units: ['repo.code'], visibility: 'public' })) as {
        id: number;
      }
    ).id;
    await rest('PUT', `/teams/${ids.devs}/members/gtmember`);
    await rest('PUT', `/teams/${ids.qa}/members/gtother`);
    for (const repo of ['pub', 'priv']) await rest('PUT', `/teams/${ids.devs}/repos/gtacme/${repo}`);
    await rest('PUT', `/teams/${ids.lim}/repos/gtacme/priv`);
  });
  afterAll(() => t.close());

  describe('reads', () => {
    it('Organization.teams shows exactly the teams the viewer may read (by name), members, repos and counts', async () => {
      const seen = await teams('gtacme', member);
      expect(seen.map((x) => x.name)).toEqual(['devs', 'lim', 'open', 'Owners']);
      const devs = seen.find((x) => x.name === 'devs');
      expect(devs).toMatchObject({
        slug: 'devs',
        privacy: 'SECRET',
        visibility: 'PRIVATE',
        permission: 'NONE',
        units: [{ unit: 'repo.code', permission: 'WRITE' }],
        viewerIsAMember: true,
        viewerCanAdminister: false,
        organization: { login: 'gtacme' },
        members: { totalCount: 1, nodes: [{ login: 'gtmember' }] },
        repositories: {
          totalCount: 2,
          nodes: [
            { name: 'pub', nameWithOwner: 'gtacme/pub', isPrivate: false, owner: { login: 'gtacme' } },
            { name: 'priv', nameWithOwner: 'gtacme/priv', isPrivate: true, owner: { login: 'gtacme' } },
          ],
        },
      });
      const owners = seen.find((x) => x.name === 'Owners');
      expect(owners).toMatchObject({
        permission: 'OWNER',
        privacy: 'VISIBLE',
        viewerIsAMember: false,
        units: expect.arrayContaining([{ unit: 'repo.code', permission: 'OWNER' }]),
      });
      expect(seen.find((x) => x.name === 'lim')?.repositories).toMatchObject({ totalCount: 1, nodes: [{ name: 'priv' }] });
      // A limited team's private repository the reader cannot see is left out, but counted (as REST's X-Total-Count).
      const lim = (await teams('gtacme', other)).find((x) => x.name === 'lim');
      expect(lim?.repositories).toEqual({ totalCount: 1, nodes: [] });
    });

    it('owners and site admins see every team; outsiders see public teams only; anonymous none', async () => {
      expect((await teams('gtacme', owner)).map((x) => x.name)).toEqual(['devs', 'lim', 'open', 'Owners', 'qa']);
      expect((await teams('gtacme', admin)).map((x) => x.name)).toEqual(['devs', 'lim', 'open', 'Owners', 'qa']);
      const out = await teams('gtacme', outsider);
      expect(out.map((x) => x.name)).toEqual(['open']);
      // Outsiders of the organization do not see the members list (REST: 403 Must be an organization member).
      expect(out[0]?.members).toEqual({ totalCount: 0, nodes: [] });
      expect(await teams('gtacme', {})).toEqual([]);
    });

    it('team(slug:) and node(id:) answer null, never an error, for a team the viewer may not read', async () => {
      const q = 'query($s: String!) { organization(login: "gtacme") { team(slug: $s) { name } } }';
      const bySlug = async (slug: string, headers: Headers) =>
        (await gql<{ organization: { team: { name: string } | null } }>(t, q, { variables: { s: slug }, headers })).data?.organization.team;
      expect(await bySlug('DEVS', member)).toEqual({ name: 'devs' });
      expect(await bySlug('devs', other)).toBeNull();
      expect(await bySlug('nope', owner)).toBeNull();
      expect(await node(gid('Team', ids.devs ?? 0), member)).toEqual({ __typename: 'Team', name: 'devs' });
      expect(await node(gid('Team', ids.devs ?? 0), other)).toBeNull();
      expect(await node(gid('Team', ids.devs ?? 0), outsider)).toBeNull();
      expect(await node(gid('Team', ids.devs ?? 0), {})).toBeNull();
      expect(await node(gid('Team', ids.secretOpen ?? 0), outsider)).toBeNull();
      expect(await node(gid('Team', ids.open ?? 0), outsider)).toEqual({ __typename: 'Team', name: 'open' });
      expect(await node(gid('Team', 987654), admin)).toBeNull();
    });

    it('node(id:) of a repository follows the repository permission', async () => {
      expect(await node(gid('Repository', ids.priv ?? 0), member)).toEqual({ __typename: 'Repository', name: 'priv' });
      expect(await node(gid('Repository', ids.priv ?? 0), other)).toBeNull();
      expect(await node(gid('Repository', ids.pub ?? 0), {})).toEqual({ __typename: 'Repository', name: 'pub' });
    });
  });

  describe('mutations call the same services as REST', () => {
    let created = '';

    it('createTeam: owners only, typed errors, Gitea unit rules', async () => {
      const denied = await mutate('createTeam', 'team { name }', { organizationLogin: 'gtacme', name: 'gql', permission: 'ADMIN' }, member);
      expect(denied.error).toMatchObject({ code: 'PERMISSION_DENIED', message: 'Must be an organization owner' });
      const bad = await mutate(
        'createTeam',
        'team { name }',
        { organizationLogin: 'gtacme', name: 'bad name', permission: 'ADMIN' },
        owner,
      );
      expect(bad.error).toMatchObject({ field: 'name', code: 'VALIDATION' });
      const none = await mutate('createTeam', 'team { name }', { organizationLogin: 'gtacme', name: 'gql' }, owner);
      expect(none.error).toMatchObject({ code: 'VALIDATION', message: 'units permission should not be empty' });
      const ok = await mutate<{ team: TeamOut }>(
        'createTeam',
        'team { id name visibility permission units { unit permission } }',
        {
          organizationLogin: 'gtacme',
          name: 'gql',
          visibility: 'LIMITED',
          permission: 'WRITE',
          units: ['repo.code'],
          unitsMap: [{ unit: 'repo.issues', permission: 'READ' }],
          clientMutationId: 'c1',
        },
        owner,
      );
      expect(ok.error).toBeNull();
      expect(ok.payload).toMatchObject({
        __typename: 'CreateTeamPayload',
        team: { name: 'gql', visibility: 'LIMITED', permission: 'NONE', units: [{ unit: 'repo.issues', permission: 'READ' }] },
      });
      created = ok.payload?.team.id ?? '';
      const restTeam = (await rest('GET', `/teams/${Buffer.from(created, 'base64').toString().split(':')[1]}`)) as {
        name: string;
        units_map: Record<string, string>;
      };
      expect(restTeam).toMatchObject({ name: 'gql', units_map: { 'repo.issues': 'read' } });
    });

    it('updateTeam, addTeamMember, addTeamRepository, removeTeamRepository, removeTeamMember, deleteTeam', async () => {
      const upd = await mutate<{ team: TeamOut }>(
        'updateTeam',
        'team { name permission }',
        { teamId: created, name: 'gql2', permission: 'ADMIN' },
        owner,
      );
      expect(upd.payload).toMatchObject({ __typename: 'UpdateTeamPayload', team: { name: 'gql2', permission: 'ADMIN' } });
      const add = await mutate<{ team: TeamOut; user: { login: string } }>(
        'addTeamMember',
        'user { login } team { members(first: 5) { totalCount nodes { login } } }',
        { teamId: created, login: 'gtoutsider' },
        owner,
      );
      expect(add.payload).toMatchObject({
        user: { login: 'gtoutsider' },
        team: { members: { totalCount: 1, nodes: [{ login: 'gtoutsider' }] } },
      });
      const repo = await mutate<{ team: TeamOut }>(
        'addTeamRepository',
        'team { repositories(first: 5) { totalCount nodes { name } } }',
        { teamId: created, owner: 'gtacme', name: 'priv' },
        owner,
      );
      expect(repo.payload).toMatchObject({ team: { repositories: { totalCount: 1, nodes: [{ name: 'priv' }] } } });
      const denied = await mutate('addTeamRepository', 'team { name }', { teamId: created, owner: 'gtacme', name: 'pub' }, other);
      expect(denied.error).toMatchObject({ code: 'PERMISSION_DENIED', message: 'Must be a team member' });
      const unrepo = await mutate<{ team: TeamOut }>(
        'removeTeamRepository',
        'team { repositories(first: 5) { totalCount } }',
        { teamId: created, owner: 'gtacme', name: 'priv' },
        owner,
      );
      expect(unrepo.payload).toMatchObject({ team: { repositories: { totalCount: 0 } } });
      const unmember = await mutate<{ team: TeamOut }>(
        'removeTeamMember',
        'team { members(first: 5) { totalCount } }',
        { teamId: created, login: 'gtoutsider' },
        owner,
      );
      expect(unmember.payload).toMatchObject({ team: { members: { totalCount: 0 } } });
      const ownersId = gid('Team', (await t.db.team.findFirstOrThrow({ where: { org: { lowerName: 'gtacme' }, authorize: 'OWNER' } })).id);
      expect((await mutate('deleteTeam', 'deletedTeamId', { teamId: ownersId }, owner)).error).toMatchObject({
        code: 'VALIDATION',
        message: 'the Owners team cannot be deleted',
      });
      expect((await mutate('deleteTeam', 'deletedTeamId', { teamId: gid('Team', 999999) }, owner)).error).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect((await mutate('deleteTeam', 'deletedTeamId', { teamId: created }, {})).error).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await mutate('deleteTeam', 'deletedTeamId', { teamId: created }, owner)).toMatchObject({
        payload: { __typename: 'DeleteTeamPayload', deletedTeamId: created },
        error: null,
      });
      expect(await node(created, owner)).toBeNull();
    });
  });

  describe('SQL statement count (DESIGN §6: shape, not size)', () => {
    const QUERY =
      '{ organization(login: "gtcount") { teams(first: 50) { nodes { name members(first: 50) { totalCount nodes { login } } repositories(first: 50) { totalCount nodes { name } } } } } }';
    let made = 0;

    /** Grows organization gtcount to `teamCount` teams of `perTeam` members and two repositories each. */
    async function grow(teamCount: number, perTeam: number): Promise<void> {
      const org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'gtcount' } });
      const gtowner = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'gtowner' } });
      for (let i = 0; i < teamCount; i++) {
        const name = `team${String(i).padStart(2, '0')}`;
        let team = await t.db.team.findFirst({ where: { orgId: org.id, lowerName: name } });
        if (!team) {
          team = await createTeam(t, gtowner, org, { name, permission: 'read', units: ['repo.code'] });
          for (const r of ['a', 'b']) {
            await addTeamRepo(t, gtowner, team, await createRepo(t, gtowner, `${name}-${r}`, { org, private: r === 'b' }));
          }
        }
        for (let m = await t.db.teamUser.count({ where: { teamId: team.id } }); m < perTeam; m++) {
          await addTeamMember(t, gtowner, team, await t.createUser(`cnt${made++}`));
        }
      }
    }

    async function count(teamCount: number, perTeam: number, headers: Headers): Promise<{ n: number; sql: string[] }> {
      await t.app.deps.notifier.drain(); // the fixtures' events are handled in the background
      t.queries.length = 0;
      const res = await gql<{ organization: { teams: { nodes: TeamOut[] } } }>(t, QUERY, { headers });
      const sql = [...t.queries];
      expect(res.errors).toBeUndefined();
      const nodes = res.data?.organization.teams.nodes ?? [];
      const mine = nodes.filter((x) => x.name.startsWith('team'));
      expect(mine).toHaveLength(teamCount);
      for (const team of mine) {
        expect(team.members?.totalCount).toBe(perTeam);
        expect(team.members?.nodes).toHaveLength(perTeam);
        expect(team.repositories?.totalCount).toBe(2);
      }
      return { n: sql.length, sql };
    }

    it('is the same for 2 teams × 2 members as for 12 teams × 6 members', async () => {
      await rest('POST', '/orgs', { username: 'gtcount' });
      await grow(2, 2);
      const small = { owner: await count(2, 2, owner), admin: await count(2, 2, admin) };
      await grow(12, 6);
      const large = { owner: await count(12, 6, owner), admin: await count(12, 6, admin) };
      console.info(
        `[${provider}] organization → teams → members + repositories: owner ${small.owner.n} statements for 2×2, ${large.owner.n} for 12×6; site admin ${small.admin.n} / ${large.admin.n}`,
      );
      expect(large.owner.n, large.owner.sql.join('\n')).toBe(small.owner.n);
      expect(large.admin.n, large.admin.sql.join('\n')).toBe(small.admin.n);
      expect(small.owner.n).toBeLessThanOrEqual(25);
      if (process.env.DUMP_SQL) console.info(small.owner.sql.map((q) => q.slice(0, 160)).join('\n'));
    });
  });
});
