import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { ellipsisDisplayString, feedExcerpt } from '../../src/notify/ellipsis.ts';
import { findMentions } from '../../src/notify/mentions.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, addTeamRepo, blockUser, createTeam, editUser } from '../helpers/fixtures.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';

type Json = Record<string, unknown>;

describe('findMentions (Gitea mentionPattern over stripped Markdown)', () => {
  it.each([
    ['@alice', ['alice']],
    ['hi @bob, and @carol.', ['bob', 'carol']],
    ['@a @b @c', ['a', 'b', 'c']],
    ['(@paren) [@bracket] @end!', ['paren', 'bracket', 'end']],
    ["@quote's", ['quote']],
    ['mail me at a@b.com', []],
    ['@acme/core please', ['acme/core']],
    ['@a.b-c_d: done', ['a.b-c_d']],
    ['@dot. next', ['dot']],
    ['@trailing-dot.', ['trailing-dot']],
    ['not@this or@that', []],
    ['inline `@code` and @real', ['real']],
    ['```\n@fenced\n```\n@after', ['after']],
    ['text\n\n    @indented\n\n@out', ['out']],
    ['**@bold** and _@em_', ['bold', 'em']],
    ['[@linktext](http://x) @plain', ['plain']],
    ['<b>@html</b>', ['html']],
    ['@', []],
  ])('%j → %j', (body, expected) => {
    expect(findMentions(body)).toEqual(expected);
  });
});

describe("Gitea's feed excerpt", () => {
  it('keeps short text and a nearly-fitting tail; cuts at 200 display columns with "…"', () => {
    expect(ellipsisDisplayString('short', 200)).toEqual({ text: 'short', truncated: false });
    expect(ellipsisDisplayString('abcdefghij', 8)).toEqual({ text: 'abcde…', truncated: true });
    expect(ellipsisDisplayString('abcdefghi', 8).text).toBe('abcde…');
    expect(ellipsisDisplayString('漢字漢字漢字', 8)).toEqual({ text: '漢字…', truncated: true });
    expect(feedExcerpt('x'.repeat(300))).toBe(`${'x'.repeat(197)}…`);
    expect(feedExcerpt(`${'y'.repeat(190)} tail-of-the-line and more`)).toBe(`${'y'.repeat(190)}…`);
  });
});

describe.each(PROVIDERS)('mentions → IssueUser.isMentioned (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  let priv: Models.Repository;

  const req = (method: string, viewer: string, path: string, body?: unknown) =>
    t.request(method, `/api/v1/${path}`, { headers: basic(viewer), ...(body === undefined ? {} : { body }) });
  const numbers = (res: { json(): unknown }) => (res.json() as Json[]).map((i) => i.number);
  async function mentioned(repo: Models.Repository, n: number): Promise<string[]> {
    await t.app.deps.notifier.drain();
    const issue = await t.db.issue.findUniqueOrThrow({ where: { repoId_index: { repoId: repo.id, index: n } } });
    const rows = await t.db.issueUser.findMany({ where: { issueId: issue.id, isMentioned: true }, include: { user: true } });
    return rows.map((r) => r.user.name).sort();
  }
  async function newIssue(viewer: string, repoPath: string, body: string): Promise<number> {
    const res = await req('POST', viewer, `repos/${repoPath}/issues`, { title: 'mention', body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'outsider', 'grumpy', 'sleeper', 'member', 'nonmember']) users[n] = await t.createUser(n);
    const res = await req('POST', 'alice', 'user/repos', { name: 'priv', private: true });
    priv = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
    for (const name of ['reader', 'grumpy', 'sleeper']) await addCollaborator(t, priv, users[name]!, 'read');
    // Blocking alice also ends grumpy's collaboration on her repository (as Gitea).
    await blockUser(t, users.grumpy!, users.alice!);
    await editUser(t, users.sleeper!, { prohibitLogin: true });
  });
  afterAll(() => t.close());

  it('marks mentioned users who exist and may read the issue; not the author, outsiders, unknown names, blockers or disabled users', async () => {
    const n = await newIssue('alice', 'alice/priv', 'ping @Reader @outsider @nobody @alice @grumpy @sleeper');
    expect(await mentioned(priv, n)).toEqual(['reader']);
    const byReader = await req('GET', 'reader', 'repos/alice/priv/issues?mentioned_by=reader&state=all');
    expect(numbers(byReader)).toEqual([n]);
    expect(numbers(await req('GET', 'alice', 'repos/alice/priv/issues?mentioned_by=outsider&state=all'))).toEqual([]);
    expect(numbers(await req('GET', 'reader', 'repos/issues/search?mentioned=true&state=all'))).toEqual([n]);
    expect(numbers(await req('GET', 'alice', 'repos/issues/search?mentioned=true&state=all'))).toEqual([]);
  });

  it('picks up mentions from comments, comment edits and issue body edits', async () => {
    const n = await newIssue('alice', 'alice/priv', 'no mentions here');
    expect(await mentioned(priv, n)).toEqual([]);
    await addCollaborator(t, priv, users.member!, 'write');
    const c = await req('POST', 'reader', `repos/alice/priv/issues/${n}/comments`, { body: 'cc @member' });
    expect(c.statusCode).toBe(201);
    expect(await mentioned(priv, n)).toEqual(['member']);
    await req('PATCH', 'reader', `repos/alice/priv/issues/comments/${c.json().id}`, { body: 'cc @member and @alice' });
    expect(await mentioned(priv, n)).toEqual(['alice', 'member']);
    await req('PATCH', 'alice', `repos/alice/priv/issues/${n}`, { title: 'retitled only' });
    await req('PATCH', 'alice', `repos/alice/priv/issues/${n}`, { body: 'now @reader too' });
    expect(await mentioned(priv, n)).toEqual(['alice', 'member', 'reader']);
    // An existing IssueUser row (e.g. read state) is updated rather than duplicated.
    const m = await newIssue('alice', 'alice/priv', 'plain');
    const issue = await t.db.issue.findUniqueOrThrow({ where: { repoId_index: { repoId: priv.id, index: m } } });
    await t.db.issueUser.create({ data: { issueId: issue.id, userId: users.reader!.id, isRead: true } });
    await req('POST', 'alice', `repos/alice/priv/issues/${m}/comments`, { body: '@reader look' });
    expect(await mentioned(priv, m)).toEqual(['reader']);
    expect(await t.db.issueUser.findMany({ where: { issueId: issue.id }, select: { isRead: true, isMentioned: true } })).toEqual([
      { isRead: true, isMentioned: true },
    ]);
  });

  it('@org/team mentions the members of a team with access to the issue', async () => {
    const org = await createOrgAs(t, users.alice!, 'acme');
    const res = await req('POST', 'alice', 'orgs/acme/repos', { name: 'orepo', private: true });
    const repo = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
    const core = await createTeam(t, users.alice!, org, { name: 'core', permission: 'read', units: ['repo.issues'] });
    await addTeamRepo(t, users.alice!, core, repo);
    await addMember(t, org, users.member!, { team: 'core' });
    await addMember(t, org, users.nonmember!, { team: 'bystanders' });
    const n = await newIssue('alice', 'acme/orepo', 'hey @acme/core and @acme/bystanders and @other/core');
    expect(await mentioned(repo, n)).toEqual(['member']);
  });
});
