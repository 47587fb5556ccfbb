import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

/**
 * Reaction groups counted in SQL (an operation that reads no reactor: `reactors`/`users` with `totalCount` only)
 * answer what the groups built from every reaction row answer: the same counts (migrated reactions and reactions
 * of deleted users left out), the same first time (migrated ones included), the same `viewerHasReacted`, on every
 * field that has reaction groups — an issue list (preloaded), one issue, its comments, a pull request — while no
 * reaction row and no reactor is read.
 */
describe.each(PROVIDERS)('reaction groups counted in SQL (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    for (const login of ['ann', 'bob', 'cyd', 'gone']) await t.createUser(login);
    const h = basic('owner');
    const post = async (url: string, body: unknown) => {
      const res = await t.request('POST', url, { headers: h, body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };
    await post('/api/v1/user/repos', { name: 'r', auto_init: true });
    for (const title of ['one', 'two', 'three']) await post('/api/v1/repos/owner/r/issues', { title });
    const comment = (await post('/api/v1/repos/owner/r/issues/1/comments', { body: 'c' })) as { id: number };
    await post('/api/v1/repos/owner/r/branches', { new_branch_name: 'f', old_branch_name: 'main' });
    await post('/api/v1/repos/owner/r/contents/f.txt', { content: Buffer.from('f').toString('base64'), branch: 'f' });
    await post('/api/v1/repos/owner/r/pulls', { head: 'f', base: 'main', title: 'pull' });
    const react = async (user: string, path: string, content: string) => {
      const res = await t.request('POST', `/api/v1/repos/owner/r/issues/${path}/reactions`, { headers: basic(user), body: { content } });
      expect(res.statusCode, res.body).toBe(201);
    };
    for (const [user, content] of [
      ['ann', 'heart'],
      ['bob', 'heart'],
      ['cyd', '+1'],
      ['gone', 'heart'],
      ['owner', 'rocket'],
    ] as const) {
      await react(user, '1', content);
      await react(user, `comments/${comment.id}`, content);
      await react(user, '4', content);
    }
    await react('bob', '2', 'eyes');
    const issue = await t.db.issue.findFirstOrThrow({ where: { index: 1, isPull: false } });
    // A migrated reaction, older than every other: it sets the group's time but is not counted.
    await t.db.reaction.create({
      data: { type: '+1', issueId: issue.id, originalAuthor: 'someone', originalAuthorId: 7, createdAt: new Date('2001-01-01T00:00:00Z') },
    });
    // A reactor whose account is deleted afterwards (its reactions go with it).
    await t.db.user.delete({ where: { lowerName: 'gone' } });
  });
  afterAll(() => t.close());

  const counted = 'content createdAt viewerHasReacted reactors { totalCount } users { totalCount }';
  const listed = `content createdAt viewerHasReacted reactors(first: 20) { totalCount nodes { ... on User { login } } } users { totalCount }`;
  const query = (groups: string) => `{ repository(owner: "owner", name: "r") {
    issues(first: 10) { nodes { number reactionGroups { ${groups} } } }
    issue(number: 1) { reactionGroups { ${groups} } comments(first: 5) { nodes { reactionGroups { ${groups} } } } }
    pullRequest(number: 4) { reactionGroups { ${groups} } }
  } }`;
  interface Group {
    content: string;
    createdAt: string | null;
    viewerHasReacted: boolean;
    reactors: { totalCount: number; nodes?: { login: string }[] };
    users: { totalCount: number };
  }
  /** Every group of the answer, with its place, without the reactors' logins. */
  function groupsOf(data: unknown): [string, Omit<Group, 'reactors'> & { reactors: number }][] {
    const out: [string, Omit<Group, 'reactors'> & { reactors: number }][] = [];
    const walk = (v: unknown, at: string) => {
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}.${i}`));
      if (v === null || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        if (k !== 'reactionGroups') walk(x, `${at}.${k}`);
        else for (const g of x as Group[]) out.push([`${at}.${g.content}`, { ...g, reactors: g.reactors.totalCount }]);
      }
    };
    walk(data, '');
    return out;
  }

  for (const viewer of ['anon', 'ann', 'cyd']) {
    it(`answers the row-built groups' counts, times and flags (${viewer})`, async () => {
      const headers = viewer === 'anon' ? {} : basic(viewer);
      t.queries.length = 0;
      const fast = await gql(t, query(counted), { headers });
      const countedStatements = t.queries.filter((q) => q.includes('"Reaction"'));
      t.queries.length = 0;
      const full = await gql(t, query(listed), { headers });
      const rowStatements = t.queries.filter((q) => q.includes('"Reaction"'));
      expect(fast.errors).toBeUndefined();
      expect(full.errors).toBeUndefined();
      expect(groupsOf(fast.data)).toEqual(groupsOf(full.data));
      // The counted answer read no reaction row: every statement on reactions groups them.
      expect(countedStatements.length).toBeGreaterThan(0);
      expect(countedStatements.every((q) => /GROUP BY/.test(q) && !/SELECT \*/.test(q))).toBe(true);
      expect(rowStatements.every((q) => /SELECT \* FROM "Reaction"/.test(q))).toBe(true);
    });
  }

  it('counts what was reacted: heart 2 (the deleted user left out), +1 1 (the migrated one left out, but its time kept)', async () => {
    const res = await gql<{ repository: { issue: { reactionGroups: Group[] } } }>(
      t,
      `{ repository(owner: "owner", name: "r") { issue(number: 1) { reactionGroups { ${counted} } } } }`,
      { headers: basic('ann') },
    );
    expect(res.errors).toBeUndefined();
    const byContent = new Map(res.data!.repository.issue.reactionGroups.map((g) => [g.content, g]));
    expect(byContent.get('HEART')).toMatchObject({ reactors: { totalCount: 2 }, users: { totalCount: 2 }, viewerHasReacted: true });
    expect(byContent.get('THUMBS_UP')).toMatchObject({
      reactors: { totalCount: 1 },
      viewerHasReacted: false,
      createdAt: '2001-01-01T00:00:00.000Z',
    });
    expect(byContent.get('ROCKET')).toMatchObject({ reactors: { totalCount: 1 } });
    expect(byContent.get('LAUGH')).toMatchObject({ reactors: { totalCount: 0 }, createdAt: null, viewerHasReacted: false });
    expect([...byContent.keys()]).toEqual(['THUMBS_UP', 'THUMBS_DOWN', 'LAUGH', 'HOORAY', 'CONFUSED', 'HEART', 'ROCKET', 'EYES']);
  });
});
