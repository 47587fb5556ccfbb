import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

const FORK = `mutation($input: ForkRepositoryInput!) { forkRepository(input: $input) { __typename clientMutationId repository { nameWithOwner isFork isPrivate forkCount parent { nameWithOwner forkCount } } } }`;

interface ForkedRepo {
  nameWithOwner: string;
  isFork: boolean;
  isPrivate: boolean;
  forkCount: number;
  parent: { nameWithOwner: string; forkCount: number } | null;
}
type ForkPayload = { __typename: string; clientMutationId: string | null; repository: ForkedRepo };

interface ForksPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { nameWithOwner: string }[];
}

describe.each(PROVIDERS)('GraphQL forks (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;

  async function run(input: Record<string, unknown>, headers: Record<string, string>) {
    const res = await gql<{ forkRepository: ForkPayload | null }>(t, FORK, { variables: { input }, headers });
    return { payload: res.data?.forkRepository ?? null, error: mutationError(res, 'forkRepository') };
  }

  /** A fork that must succeed: its payload. */
  async function forkRepository(input: Record<string, unknown>, headers: Record<string, string>): Promise<ForkPayload> {
    const { payload, error } = await run(input, headers);
    expect(error).toBeNull();
    if (!payload) throw new Error('no forkRepository result');
    return payload;
  }

  /** A fork that must be refused: its error. */
  async function forkRefused(input: Record<string, unknown>, headers: Record<string, string>): Promise<MutationError | null> {
    const { payload, error } = await run(input, headers);
    expect(payload).toBeNull();
    return error;
  }

  async function forksOf(name: string, headers: Record<string, string>, args = 'first: 10'): Promise<ForksPage | null> {
    const res = await gql<{ repository: { forks: ForksPage } | null }>(
      t,
      `{ repository(owner: "gfowner", name: "${name}") { forks(${args}) { totalCount pageInfo { hasNextPage endCursor } nodes { nameWithOwner } } } }`,
      { headers },
    );
    expect(res.errors).toBeUndefined();
    return res.data?.repository?.forks ?? null;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('gfowner');
    for (const u of ['gfreader', 'gfoutsider', 'gfmember']) await t.createUser(u);
    const org = await createOrgAs(t, owner, 'gforg');
    await addMember(t, org, await t.db.user.findUniqueOrThrow({ where: { lowerName: 'gfmember' } }));
    await createOrgAs(t, owner, 'gfhidden', 'PRIVATE');
    for (const body of [
      { name: 'app', auto_init: true },
      { name: 'vault', auto_init: true, private: true },
    ]) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('gfowner'), body });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('forkRepository forks through the fork service: the fork, its parent and the counters', async () => {
    const r = await forkRepository({ owner: 'gfowner', name: 'app', clientMutationId: 'f1' }, basic('gfreader'));
    expect(r).toEqual({
      __typename: 'ForkRepositoryPayload',
      clientMutationId: 'f1',
      repository: {
        nameWithOwner: 'gfreader/app',
        isFork: true,
        isPrivate: false,
        forkCount: 0,
        parent: { nameWithOwner: 'gfowner/app', forkCount: 1 },
      },
    });
    const rest = await t.request('GET', '/api/v1/repos/gfreader/app', { headers: basic('gfreader') });
    expect(rest.json()).toMatchObject({ fork: true, parent: { full_name: 'gfowner/app', forks_count: 1 } });
    const named = await forkRepository({ owner: 'gfowner', name: 'app', forkName: 'app-copy', organization: 'gforg' }, basic('gfowner'));
    expect(named.repository?.nameWithOwner).toBe('gforg/app-copy');
  });

  it('typed errors for each role: anonymous, outsider on a private repository, member without create rights, duplicates, bad names', async () => {
    expect(await forkRefused({ owner: 'gfowner', name: 'app' }, {})).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await forkRefused({ owner: 'gfowner', name: 'vault' }, basic('gfoutsider'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await forkRefused({ owner: 'gfowner', name: 'app', organization: 'gforg' }, basic('gfmember'))).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'User is not allowed to create repositories in this organization.',
    });
    expect(await forkRefused({ owner: 'gfowner', name: 'app', organization: 'gfhidden' }, basic('gfmember'))).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await forkRefused({ owner: 'gfowner', name: 'app', forkName: 'again' }, basic('gfreader'))).toMatchObject({
      code: 'ALREADY_EXISTS',
      message: 'repository is already forked by user [uname: gfreader, repo path: gfowner/app, fork path: gfreader/app]',
    });
    expect(await forkRefused({ owner: 'gfowner', name: 'app', forkName: 'no spaces' }, basic('gfoutsider'))).toMatchObject({
      code: 'VALIDATION',
      field: 'forkName',
    });
    expect(await t.db.repository.count({ where: { ownerName: { in: ['gfoutsider', 'gfmember'] } } })).toBe(0);
  });

  it('a private repository forked by a collaborator gives a private fork, listed only for those who can read it', async () => {
    expect(
      (
        await t.request('PUT', '/api/v1/repos/gfowner/vault/collaborators/gfreader', {
          headers: basic('gfowner'),
          body: { permission: 'read' },
        })
      ).statusCode,
    ).toBe(204);
    const r = await forkRepository({ owner: 'gfowner', name: 'vault' }, basic('gfreader'));
    expect(r.repository).toMatchObject({ nameWithOwner: 'gfreader/vault', isPrivate: true, parent: { nameWithOwner: 'gfowner/vault' } });
    expect((await forksOf('vault', basic('gfreader')))?.nodes).toEqual([{ nameWithOwner: 'gfreader/vault' }]);
    // Private forks are visible only to those who can read them (Gitea FindForks), not even to the parent's owner.
    expect(await forksOf('vault', basic('gfowner'))).toMatchObject({ totalCount: 0, nodes: [] });
    expect(await forksOf('vault', basic('gfoutsider'))).toBeNull();
  });

  it('Repository.forks: the visible forks, oldest first, with totalCount and cursors', async () => {
    expect(
      (await forkRepository({ owner: 'gfowner', name: 'app', organization: 'gfhidden' }, basic('gfowner'))).repository?.nameWithOwner,
    ).toBe('gfhidden/app');
    expect((await forksOf('app', basic('gfowner')))?.nodes.map((n) => n.nameWithOwner)).toEqual([
      'gfreader/app',
      'gforg/app-copy',
      'gfhidden/app',
    ]);
    const anon = await forksOf('app', {}, 'first: 1');
    expect(anon?.totalCount).toBe(2);
    expect(anon?.nodes).toEqual([{ nameWithOwner: 'gfreader/app' }]);
    expect(anon?.pageInfo.hasNextPage).toBe(true);
    const next = await forksOf('app', {}, `first: 5, after: "${anon?.pageInfo.endCursor}"`);
    expect(next?.nodes).toEqual([{ nameWithOwner: 'gforg/app-copy' }]);
  });

  it('statement count: forks under a list of repositories does not grow with the number of repositories or forks', async () => {
    const forker = await t.createUser('gfcounter');
    const units = { create: (['CODE', 'PULL_REQUESTS'] as const).map((type) => ({ type })) };
    let made = 0;
    const makeRepo = (o: Models.User, name: string, forkId: number | null, isPrivate = false) =>
      t.db.repository.create({
        data: { ownerId: o.id, ownerName: o.name, name, lowerName: name.toLowerCase(), isPrivate, isFork: forkId !== null, forkId, units },
      });
    /** Adds `parents` parents with `forks` forks each (every third fork private, so invisible to the viewer). */
    async function grow(parents: number, forks: number): Promise<void> {
      for (let p = 0; p < parents; p++) {
        const parent = await makeRepo(forker, `count-${made++}`, null);
        for (let f = 0; f < forks; f++) {
          const u = await t.createUser(`gff${made}x${f}`);
          await makeRepo(u, parent.name, parent.id, f % 3 === 2);
        }
        await t.db.repository.update({ where: { id: parent.id }, data: { numForks: forks } });
      }
    }
    const q =
      '{ user(login: "gfcounter") { repositories(first: 50) { nodes { name forkCount forks(first: 50) { totalCount nodes { nameWithOwner isFork owner { login } parent { name } } } } } } }';
    type Out = {
      user: {
        repositories: {
          nodes: { forkCount: number; forks: { totalCount: number; nodes: { isFork: boolean; parent: { name: string } }[] } }[];
        };
      };
    };
    async function measure(): Promise<{ statements: number; sql: string[]; data: Out }> {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<Out>(t, q, { headers: basic('gfreader') });
      const sql = [...t.queries];
      expect(res.errors).toBeUndefined();
      return { statements: sql.length, sql, data: res.data as Out };
    }
    await grow(2, 2);
    const small = await measure();
    expect(small.data.user.repositories.nodes.map((n) => n.forks.totalCount)).toEqual([2, 2]);
    await grow(4, 6);
    const large = await measure();
    const nodes = large.data.user.repositories.nodes;
    expect(nodes).toHaveLength(6);
    expect(nodes.slice(2).map((n) => [n.forkCount, n.forks.totalCount, n.forks.nodes.length])).toEqual(Array(4).fill([6, 4, 4]));
    expect(nodes.every((n) => n.forks.nodes.every((f) => f.isFork && f.parent !== null))).toBe(true);
    console.info(
      `[${provider}] repositories → forks: ${small.statements} statements for 2×2 forks, ${large.statements} for 6 repositories with up to 6 forks`,
    );
    expect(large.statements, large.sql.join('\n')).toBe(small.statements);
  });
});
