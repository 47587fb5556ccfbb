// GitHub's arguments of the repository lists (User.repositories, Organization.repositories, Repository.forks,
// User.watching): each filter excludes, each order orders, totalCount counts what the filters keep, and what the
// lists cannot honour is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import * as forkService from '../../src/services/repo/fork.ts';
import * as starService from '../../src/services/watch/star.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo, editRepo, setUnits } from '../helpers/fixtures.ts';
import { gql } from '../helpers/graphql.ts';
import { contextFor, createOrgAs } from '../helpers/org.ts';

interface Page {
  totalCount: number;
  nodes: { name: string }[];
}

describe.each(PROVIDERS)('GraphQL repository list arguments (%s)', (provider) => {
  let t: TestApp;
  let alice: Models.User;
  let bob: Models.User;

  /** The names a list answers, and its totalCount. */
  async function list(field: string, args: string, viewer: string | null = 'alice') {
    const res = await gql<Record<string, Record<string, Page> | null>>(
      t,
      `{ ${field.replace('LIST', `(${args}) { totalCount nodes { name } }`)} }`,
      viewer ? { headers: basic(viewer) } : {},
    );
    return res;
  }
  const names = async (field: string, args: string, viewer: string | null = 'alice') => {
    const res = await list(field, args, viewer);
    expect(res.errors).toBeUndefined();
    const root = Object.values(res.data!)[0]!;
    const page = Object.values(root)[0]!;
    // totalCount counts what the filters keep (every list here fits in a page of 10).
    if (args.includes('first: 10')) expect(page.totalCount).toBe(page.nodes.length);
    else expect(page.totalCount).toBeGreaterThanOrEqual(page.nodes.length);
    return page.nodes.map((n) => n.name);
  };
  const USER = 'user(login: "alice") { repositories LIST }';

  beforeAll(async () => {
    t = await startTestApp(provider);
    alice = await t.createUser('alice');
    bob = await t.createUser('bob');
    const carol = await t.createUser('carol');
    // Created in an order other than their names' (b, a, d, c).
    for (const [name, priv] of [
      ['b-public', false],
      ['a-private', true],
      ['d-archived', false],
      ['c-noissues', false],
    ] as const)
      await createRepo(t, alice, name, { private: priv });
    // Creation times a second apart, so CREATED_AT orders them whatever the clock's resolution: set directly, as no
    // service sets a creation time.
    const rows = await t.db.repository.findMany({ where: { ownerId: alice.id }, orderBy: { id: 'asc' } });
    for (const [i, r] of rows.entries())
      await t.db.repository.update({ where: { id: r.id }, data: { createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)) } });
    await editRepo(t, { ownerName: 'alice', name: 'd-archived' }, { archived: true });
    await setUnits(t, { ownerName: 'alice', name: 'c-noissues' }, ['CODE', 'PULL_REQUESTS']);
    await addCollaborator(t, { ownerName: 'alice', name: 'c-noissues' }, bob, 'read');
    for (const user of [bob, carol]) await starService.setStar(contextFor(t, user), { owner: 'alice', repo: 'c-noissues' }, true);
    await starService.setStar(contextFor(t, bob), { owner: 'alice', repo: 'b-public' }, true);
    await createRepo(t, carol, 'upstream');
    await forkService.forkRepo(contextFor(t, alice), 'carol', 'upstream', { name: 'z-fork' });
    await forkService.forkRepo(contextFor(t, bob), 'carol', 'upstream', {});
    const org = await createOrgAs(t, bob, 'acme');
    await createRepo(t, bob, 'orgrepo', { org });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('orderBy orders (and DESC reverses) User.repositories', async () => {
    expect(await names(USER, 'first: 10')).toEqual(['a-private', 'b-public', 'c-noissues', 'd-archived', 'z-fork']);
    expect(await names(USER, 'first: 10, orderBy: { field: NAME, direction: DESC }')).toEqual([
      'z-fork',
      'd-archived',
      'c-noissues',
      'b-public',
      'a-private',
    ]);
    expect(await names(USER, 'first: 3, orderBy: { field: CREATED_AT, direction: ASC }')).toEqual(['b-public', 'a-private', 'd-archived']);
    const byStars = await names(USER, 'first: 2, orderBy: { field: STARGAZERS, direction: DESC }');
    expect(byStars).toEqual(['c-noissues', 'b-public']);
    // Paging after a cursor keeps the order.
    const first = await gql<{ user: { repositories: { pageInfo: { endCursor: string } } } }>(
      t,
      '{ user(login: "alice") { repositories(first: 2, orderBy: { field: NAME, direction: DESC }) { pageInfo { endCursor } } } }',
      { headers: basic('alice') },
    );
    const after = first.data!.user.repositories.pageInfo.endCursor;
    expect(await names(USER, `first: 2, after: "${after}", orderBy: { field: NAME, direction: DESC }`)).toEqual(['c-noissues', 'b-public']);
  });

  it('privacy, visibility, isFork, isArchived, isLocked and hasIssuesEnabled filter, within what the viewer may see', async () => {
    expect(await names(USER, 'first: 10, privacy: PRIVATE')).toEqual(['a-private']);
    expect(await names(USER, 'first: 10, visibility: PUBLIC')).toEqual(['b-public', 'c-noissues', 'd-archived', 'z-fork']);
    expect(await names(USER, 'first: 10, visibility: PRIVATE')).toEqual(['a-private']);
    expect(await names(USER, 'first: 10, visibility: INTERNAL')).toEqual([]);
    // Another viewer never gets alice's private repository, whatever the filter.
    expect(await names(USER, 'first: 10, privacy: PRIVATE', 'carol')).toEqual([]);
    expect(await names(USER, 'first: 10, isFork: true')).toEqual(['z-fork']);
    expect(await names(USER, 'first: 10, isFork: false, isArchived: false')).toEqual(['a-private', 'b-public', 'c-noissues']);
    expect(await names(USER, 'first: 10, isArchived: true')).toEqual(['d-archived']);
    expect(await names(USER, 'first: 10, isLocked: true')).toEqual([]);
    expect(await names(USER, 'first: 10, isLocked: false')).toHaveLength(5);
    // The filter agrees with each repository's own hasIssuesEnabled (a fork's units are its parent's).
    const all = await gql<{ user: { repositories: { nodes: { name: string; hasIssuesEnabled: boolean }[] } } }>(
      t,
      '{ user(login: "alice") { repositories(first: 10) { nodes { name hasIssuesEnabled } } } }',
      { headers: basic('alice') },
    );
    const without = all.data!.user.repositories.nodes.filter((r) => !r.hasIssuesEnabled).map((r) => r.name);
    expect(without).toContain('c-noissues');
    expect(without).not.toContain('b-public');
    expect(await names(USER, 'first: 10, hasIssuesEnabled: false')).toEqual(without);
    expect(await names(USER, 'first: 10, hasIssuesEnabled: true, privacy: PUBLIC')).toEqual(
      ['b-public', 'd-archived', 'z-fork'].filter((n) => !without.includes(n)),
    );
  });

  it("affiliations keeps the viewer's repositories; ownerAffiliations takes OWNER only", async () => {
    expect(await names(USER, 'first: 10, affiliations: [COLLABORATOR]', 'bob')).toEqual(['c-noissues']);
    expect(await names(USER, 'first: 10, affiliations: [OWNER]', 'bob')).toEqual([]);
    expect(await names(USER, 'first: 10, affiliations: [OWNER]')).toHaveLength(5);
    expect(await names(USER, 'first: 10, affiliations: [COLLABORATOR]', null)).toEqual([]);
    expect(
      await names('organization(login: "acme") { repositories LIST }', 'first: 10, affiliations: [ORGANIZATION_MEMBER]', 'bob'),
    ).toEqual(['orgrepo']);
    expect(await names('organization(login: "acme") { repositories LIST }', 'first: 10, affiliations: [ORGANIZATION_MEMBER]')).toEqual([]);
    expect(await names(USER, 'first: 10, ownerAffiliations: [OWNER]')).toHaveLength(5);
    const refused = await list(USER, 'first: 10, ownerAffiliations: [OWNER, COLLABORATOR]');
    expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'INVALID_ARGUMENT' } });
    expect(refused.errors?.[0]?.message).toContain('ownerAffiliations');
  });

  it('Repository.forks and User.watching filter and order too', async () => {
    const FORKS = 'repository(owner: "carol", name: "upstream") { forks LIST }';
    expect(await names(FORKS, 'first: 10')).toEqual(['z-fork', 'upstream']);
    expect(await names(FORKS, 'first: 10, orderBy: { field: NAME, direction: ASC }')).toEqual(['upstream', 'z-fork']);
    expect(await names(FORKS, 'first: 10, affiliations: [OWNER]', 'bob')).toEqual(['upstream']);
    const refused = await list(FORKS, 'first: 10, ownerAffiliations: [OWNER]');
    expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'INVALID_ARGUMENT' } });

    // Creating a repository watches it.
    const WATCHING = 'user(login: "alice") { watching LIST }';
    expect(await names(WATCHING, 'first: 10, orderBy: { field: NAME, direction: DESC }')).toEqual([
      'z-fork',
      'd-archived',
      'c-noissues',
      'b-public',
      'a-private',
    ]);
    expect(await names(WATCHING, 'first: 10, privacy: PRIVATE, orderBy: { field: NAME, direction: ASC }')).toEqual(['a-private']);
    expect(await names(WATCHING, 'first: 10, hasIssuesEnabled: false, isLocked: false')).toContain('c-noissues');
    expect(await names(WATCHING, 'first: 10, hasIssuesEnabled: false')).not.toContain('b-public');
    expect(await names(WATCHING, 'first: 10, privacy: PRIVATE', 'bob')).toEqual([]);
  });
});
