// bodyHTML and descriptionHTML (GitHub's HTML fields): rendered as Gitea renders comments, with references only
// where the viewer may look, sanitized, computed only when selected and in batches (the statement count of a list
// does not grow with its length).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRef } from '../../src/git/readRefs.ts';
import { repoPath } from '../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface IssueNode {
  number: number;
  bodyHTML: string;
  comments: { nodes: { bodyHTML: string }[] };
}

describe.each(PROVIDERS)('bodyHTML and descriptionHTML (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let sha = '';
  const api = async (method: string, url: string, body: unknown, user = 'hauthor') => {
    const res = await t.request(method, `/api/v1${url}`, { headers: basic(user), body });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await t.app.deps.notifier.drain();
    return (res.body ? res.json() : {}) as Record<string, unknown>;
  };
  const issuesQuery = (first: number) =>
    `{ repository(owner: "hauthor", name: "site") { issues(first: ${first}, orderBy: {field: CREATED_AT, direction: ASC}) { nodes { number bodyHTML comments(first: 5) { nodes { bodyHTML } } } } } }`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('hauthor');
    await t.createUser('hfriend');
    await t.createUser('hinsider');
    await f.createRepo('hauthor', 'site');
    await api('PATCH', '/repos/hauthor/site', { description: 'Docs at https://example.com/docs :rocket: <b>bold</b>' });
    await f.createRepo('hauthor', 'vault', { private: true });
    await api('PUT', '/repos/hauthor/vault/collaborators/hinsider', { permission: 'read' });
    sha = (await readRef(repoPath(t.config.repositoriesDir, 'hauthor', 'site'), 'refs/heads/main')) ?? '';
    await api('POST', '/repos/hauthor/site/issues', {
      title: 'first',
      body: `Fixes #2 in ${sha.slice(0, 10)}, see hauthor/vault#1, thanks @hfriend :tada:\n<img src=x onerror="alert(1)"><script>alert(2)</script>`,
    });
    await api('POST', '/repos/hauthor/site/issues/1/comments', { body: 'Comment for **#1** and !2' });
    for (let i = 2; i <= 6; i++)
      await api('POST', '/repos/hauthor/site/issues', { title: `issue ${i}`, body: `Mentions @hfriend and #${i - 1}` });
  }, 120_000);
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('issue and comment bodies: references, mentions, commit ids and emoji linked as Gitea does, and sanitized', async () => {
    const res = await gql<{ repository: { issues: { nodes: IssueNode[] } } }>(t, issuesQuery(1), { headers: basic('hfriend') });
    expect(res.errors).toBeUndefined();
    const issue = res.data?.repository.issues.nodes[0];
    const html = issue?.bodyHTML ?? '';
    expect(html).toContain('Fixes <a href="http://localhost:3000/hauthor/site/issues/2" class="ref-issue" rel="nofollow">#2</a>');
    expect(html).toContain(
      `<a href="http://localhost:3000/hauthor/site/commit/${sha.slice(0, 10)}" class="commit" rel="nofollow"><code class="nohighlight">${sha.slice(0, 10)}</code></a>`,
    );
    // hfriend cannot read the private repository: its reference stays text.
    expect(html).toContain('see hauthor/vault#1, thanks');
    expect(html).toContain('<a href="http://localhost:3000/hfriend" rel="nofollow">@hfriend</a>');
    expect(html).toContain('<span aria-label="tada" class="emoji">🎉</span>');
    expect(html).toContain('<br />');
    expect(html).not.toMatch(/onerror|<script|alert\(2\)/);
    expect(issue?.comments.nodes[0]?.bodyHTML).toBe(
      '<p>Comment for <strong><a href="http://localhost:3000/hauthor/site/issues/1" class="ref-issue" rel="nofollow">#1</a></strong> and <a href="http://localhost:3000/hauthor/site/pulls/2" class="ref-issue" rel="nofollow">!2</a></p>\n',
    );
    const insider = await gql<{ repository: { issues: { nodes: IssueNode[] } } }>(t, issuesQuery(1), { headers: basic('hinsider') });
    expect(insider.data?.repository.issues.nodes[0]?.bodyHTML).toContain(
      '<a href="http://localhost:3000/hauthor/vault/issues/1" class="ref-issue" rel="nofollow">hauthor/vault#1</a>',
    );
  });

  it('renders a list in batches: the statement count does not grow with the number of bodies', async () => {
    const statements = async (n: number) => {
      t.queries.length = 0;
      const res = await gql<{ repository: { issues: { nodes: IssueNode[] } } }>(t, issuesQuery(n), { headers: basic('hfriend') });
      expect(res.errors).toBeUndefined();
      const nodes = res.data?.repository.issues.nodes ?? [];
      expect(nodes).toHaveLength(n);
      expect(nodes.at(-1)?.bodyHTML).toContain('<a href="http://localhost:3000/hfriend" rel="nofollow">@hfriend</a>');
      return t.queries.length;
    };
    expect(await statements(6)).toBe(await statements(2));
  });

  it('is computed only when selected', async () => {
    const query = '{ repository(owner: "hauthor", name: "site") { issues(first: 6) { nodes { number body } } } }';
    t.queries.length = 0;
    await gql(t, query, { headers: basic('hfriend') });
    const without = t.queries.length;
    t.queries.length = 0;
    await gql(t, query.replace('number body', 'number body bodyHTML'), { headers: basic('hfriend') });
    // The body's columns come with the issue row; only the render's lookups are added (repositories, users, references).
    expect(t.queries.length).toBeGreaterThan(without);
    expect(t.queries.length).toBeLessThanOrEqual(without + 4);
  });

  it('pull requests, reviews and review comments', async () => {
    const index = await f.pushAndOpen('hauthor', 'site', 'hauthor', 'feature', { 'a.txt': 'a\n' }, { body: 'Closes #1 :+1:' });
    await api('POST', `/repos/hauthor/site/pulls/${index}/reviews`, {
      event: 'COMMENT',
      body: 'Review mentions @hfriend',
      comments: [{ path: 'a.txt', new_position: 1, body: 'Line note about #3' }],
    });
    const res = await gql<{
      repository: {
        pullRequest: { bodyHTML: string; reviews: { nodes: { bodyHTML: string; comments: { nodes: { bodyHTML: string }[] } }[] } };
      };
    }>(
      t,
      `{ repository(owner: "hauthor", name: "site") { pullRequest(number: ${index}) { bodyHTML reviews(first: 5) { nodes { bodyHTML comments(first: 5) { nodes { bodyHTML } } } } } } }`,
      { headers: basic('hfriend') },
    );
    expect(res.errors).toBeUndefined();
    const pr = res.data?.repository.pullRequest;
    expect(pr?.bodyHTML).toBe(
      '<p>Closes <a href="http://localhost:3000/hauthor/site/issues/1" class="ref-issue" rel="nofollow">#1</a> <span aria-label="+1" class="emoji">👍</span></p>\n',
    );
    const review = pr?.reviews.nodes.find((r) => r.bodyHTML.includes('Review'));
    expect(review?.bodyHTML).toBe('<p>Review mentions <a href="http://localhost:3000/hfriend" rel="nofollow">@hfriend</a></p>\n');
    expect(review?.comments.nodes[0]?.bodyHTML).toContain(
      '<a href="http://localhost:3000/hauthor/site/issues/3" class="ref-issue" rel="nofollow">#3</a>',
    );
  });

  it('release and repository descriptions', async () => {
    await api('POST', '/repos/hauthor/site/releases', { tag_name: 'v1', name: 'One', body: '## Notes\nFixes #4' });
    await api('POST', '/repos/hauthor/site/releases', { tag_name: 'v2', name: 'Two', body: '' });
    const res = await gql<{
      repository: { descriptionHTML: string; releases: { nodes: { tagName: string; descriptionHTML: string | null }[] } };
    }>(t, '{ repository(owner: "hauthor", name: "site") { descriptionHTML releases(first: 5) { nodes { tagName descriptionHTML } } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data?.repository.descriptionHTML).toBe(
      '<div>Docs at <a href="https://example.com/docs" rel="nofollow">https://example.com/docs</a> <span aria-label="rocket" class="emoji">🚀</span> &lt;b&gt;bold&lt;/b&gt;</div>',
    );
    const byTag = Object.fromEntries((res.data?.repository.releases.nodes ?? []).map((r) => [r.tagName, r.descriptionHTML]));
    expect(byTag.v1).toBe(
      '<h2 id="user-content-notes">Notes</h2>\n<p>Fixes <a href="http://localhost:3000/hauthor/site/issues/4" class="ref-issue" rel="nofollow">#4</a></p>\n',
    );
    expect(byTag.v2).toBeNull();
  });
});
