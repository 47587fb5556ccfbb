import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';

/**
 * A write runs the same statements whatever the number of labels, assignees and watchers it involves (issue #35):
 * labels' counters are one statement, assignees are resolved and checked together, and the fan-out to watchers
 * goes through durable jobs. Under contention every issue creation is answered 201 or 503 with Retry-After,
 * never a 500 after a transaction timeout.
 */
describe.each(PROVIDERS)('write statements and contention (%s)', (provider) => {
  let t: TestApp;
  const owner = basic('owner');
  const USERS = Array.from({ length: 10 }, (_, k) => `u${k}`);
  const labels: Record<string, number[]> = {};

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    for (const u of USERS) await t.createUser(u);
    for (const [repo, n] of [
      ['one', 1],
      ['ten', 10],
    ] as const) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: owner, body: { name: repo, auto_init: true } })).statusCode).toBe(
        201,
      );
      labels[repo] = [];
      for (let k = 0; k < 11; k++) {
        const res = await t.request('POST', `/api/v1/repos/owner/${repo}/labels`, {
          headers: owner,
          body: { name: `l${k}`, color: '#00aa00' },
        });
        labels[repo]!.push(res.json<{ id: number }>().id);
      }
      for (const u of USERS.slice(0, n)) {
        const collab = await t.request('PUT', `/api/v1/repos/owner/${repo}/collaborators/${u}`, {
          headers: owner,
          body: { permission: 'write' },
        });
        expect(collab.statusCode).toBe(204);
        expect((await t.request('PUT', `/api/v1/repos/owner/${repo}/subscription`, { headers: basic(u) })).statusCode).toBe(200);
      }
    }
  });
  afterAll(() => t.close());

  async function settle(): Promise<void> {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    await t.app.deps.notifier.drain();
  }

  /**
   * The statements of one request and of everything it set off (event subscribers, jobs: their timing relative to
   * the answer varies, their number must not), with those of earlier requests finished.
   */
  async function statements(method: string, url: string, body: unknown, status: number): Promise<string[]> {
    await settle();
    t.queries.length = 0;
    const res = await t.request(method, url, { headers: owner, body });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    await settle();
    return [...t.queries];
  }

  /** Creates an issue in `repo` with `n` labels and `n` assignees; its statements and number. */
  async function createWith(repo: string, n: number): Promise<{ queries: string[]; number: number }> {
    const url = `/api/v1/repos/owner/${repo}/issues`;
    const body = { title: `with ${n}`, labels: labels[repo]!.slice(0, n), assignees: USERS.slice(0, n) };
    await statements('POST', url, body, 201); // warm
    const queries = await statements('POST', url, body, 201);
    const list = await t.request('GET', `${url}?limit=1`, { headers: owner });
    return { queries, number: list.json<{ number: number }[]>()[0]!.number };
  }

  it('creating an issue with 1 or 10 labels, assignees and watchers runs the same statements', async () => {
    const one = await createWith('one', 1);
    const ten = await createWith('ten', 10);
    expect(ten.queries.length).toBe(one.queries.length);
    const issue = (await t.request('GET', `/api/v1/repos/owner/ten/issues/${ten.number}`, { headers: owner })).json<{
      labels: { id: number }[];
      assignees: { login: string }[];
    }>();
    expect(issue.labels).toHaveLength(10);
    expect(issue.assignees.map((a) => a.login).sort()).toEqual([...USERS].sort());
    // The labels' counters are right (one statement updates them all).
    const label = await t.db.label.findUniqueOrThrow({ where: { id: labels.ten![9]! } });
    expect(label).toMatchObject({ numIssues: 2, numClosedIssues: 0 });
  });

  it('commenting and replacing labels run the same statements with 1 or 10 watchers and labels', async () => {
    const counts: number[][] = [];
    for (const [repo, n] of [
      ['one', 1],
      ['ten', 10],
    ] as const) {
      const url = `/api/v1/repos/owner/${repo}/issues/1`;
      const comment = await statements('POST', `${url}/comments`, { body: 'hello' }, 201);
      const replace = await statements('PUT', `${url}/labels`, { labels: labels[repo]!.slice(1, n + 1) }, 200);
      counts.push([comment.length, replace.length]);
    }
    expect(counts[1]).toEqual(counts[0]);
  });

  it('a new issue or comment, or an edit, whose text names no issue and replaced none that did writes no reference job', async () => {
    // A reference scan reads the source's earlier reference comments (`refIssueId`).
    const scans = (queries: string[]) => queries.filter((q) => /^SELECT/i.test(q.trim()) && /WHERE.*refIssueId/s.test(q));
    const xrefJobs = () => t.db.job.count({ where: { kind: 'issue.xref' } });
    const url = '/api/v1/repos/owner/one/issues';
    const before = await xrefJobs();
    const plain = await statements('POST', url, { title: 'plain', body: 'no reference here' }, 201);
    expect(scans(plain)).toEqual([]);
    expect(scans(await statements('POST', `${url}/1/comments`, { body: 'still none' }, 201))).toEqual([]);
    const number = (await t.request('GET', `${url}?limit=1`, { headers: owner })).json<{ number: number }[]>()[0]!.number;
    expect(scans(await statements('PATCH', `${url}/${number}`, { title: 'plain, renamed', body: 'none either' }, 201))).toEqual([]);
    expect(await xrefJobs()).toBe(before);
    // Naming an issue still scans, and the referenced issue gets its reference comment, from an issue and a comment.
    expect(scans(await statements('POST', url, { title: 'refers', body: 'see #1' }, 201))).not.toEqual([]);
    expect(scans(await statements('POST', `${url}/2/comments`, { body: 'and #1 again' }, 201))).not.toEqual([]);
    const timeline = (await t.request('GET', `${url}/1/timeline`, { headers: owner })).json<{ type: string }[]>();
    expect(timeline.filter((e) => e.type === 'issue_ref').length).toBeGreaterThanOrEqual(1);
    expect(timeline.filter((e) => e.type === 'comment_ref').length).toBeGreaterThanOrEqual(1);
    // An edit that removes a reference scans (its job replaces the references), one that names none before or after does not.
    const refers = (await t.request('GET', `${url}?limit=1`, { headers: owner })).json<{ number: number }[]>()[0]!.number;
    expect(scans(await statements('PATCH', `${url}/${refers}`, { body: 'no longer' }, 201))).not.toEqual([]);
    expect(scans(await statements('PATCH', `${url}/${refers}`, { title: 'refers no more' }, 201))).toEqual([]);
    expect(await xrefJobs()).toBe(before + 3);
  });

  it("an issue's view reads its poster and its assignees in one statement, the assignees in the order given", async () => {
    const url = '/api/v1/repos/owner/ten/issues';
    const assignees = [USERS[2]!, USERS[0]!, USERS[1]!];
    const number = (await t.request('POST', url, { headers: owner, body: { title: 'viewed', assignees } })).json<{ number: number }>()
      .number;
    await settle();
    t.queries.length = 0;
    // Another user's view: the poster is not the viewer, so both are read.
    const res = await t.request('GET', `${url}/${number}`, { headers: basic(USERS[3]!) });
    expect(res.statusCode).toBe(200);
    const view = res.json<{ user: { login: string }; assignees: { login: string }[] }>();
    expect(view.user.login).toBe('owner');
    expect(view.assignees.map((a) => a.login)).toEqual(assignees);
    expect(t.queries.filter((q) => /"User" u\b/.test(q))).toHaveLength(1);
  });

  it("an issue's title edit writes no notification job (Gitea notifies a title change only when a pull request leaves work in progress)", async () => {
    const url = '/api/v1/repos/owner/one/issues';
    const number = (await t.request('POST', url, { headers: owner, body: { title: 'to rename' } })).json<{ number: number }>().number;
    await settle();
    const fanOuts = () => t.db.job.count({ where: { kind: 'notification.fanOut' } });
    const before = await fanOuts();
    const edit = await statements('PATCH', `${url}/${number}`, { title: 'renamed' }, 201);
    expect(edit.filter((q) => /^INSERT INTO "Job"/.test(q.trim()))).toEqual([]);
    expect(await fanOuts()).toBe(before);
    // A comment still notifies (the watchers of the issue): the job is written in its transaction. Its text has no
    // `@`, so the job is told to look for no mentions (and does not read the text again); one with `@` is.
    const mentionsIn = async () => {
      const job = await t.db.job.findFirstOrThrow({ where: { kind: 'notification.fanOut' }, orderBy: { id: 'desc' } });
      return (JSON.parse(job.payload) as { mentionsIn: unknown }).mentionsIn;
    };
    await statements('POST', `${url}/${number}/comments`, { body: 'a comment' }, 201);
    expect(await fanOuts()).toBe(before + 1);
    expect(await mentionsIn()).toBeNull();
    await statements('POST', `${url}/${number}/comments`, { body: 'thanks @someone' }, 201);
    expect(await mentionsIn()).toEqual({ commentId: expect.any(Number) });
    // The same for a new issue's body: its writer kept it with the event.
    await statements('POST', url, { title: 'plain', body: 'no mention here' }, 201);
    expect(await mentionsIn()).toBeNull();
    await statements('POST', url, { title: 'mentioning', body: 'cc @someone' }, 201);
    expect(await mentionsIn()).toEqual({ issue: true });
  });

  it('an edit that leaves its references as they stand writes nothing for them; one that changes them does', async () => {
    const url = '/api/v1/repos/owner/one/issues';
    const create = async (body: object) => (await t.request('POST', url, { headers: owner, body })).json<{ number: number }>().number;
    const [a, b] = [await create({ title: 'target a' }), await create({ title: 'target b' })];
    const number = await create({ title: 'refers again', body: `see #${a}` });
    await settle();
    const refsOn = async (n: number) =>
      (await t.request('GET', `${url}/${n}/timeline`, { headers: owner }))
        .json<{ type: string; ref_issue?: { number: number } }[]>()
        .filter((e) => e.type === 'issue_ref' && e.ref_issue?.number === number).length;
    expect(await refsOn(a)).toBe(1);
    const scans = (queries: string[]) => queries.filter((q) => /^SELECT/i.test(q.trim()) && /WHERE.*refIssueId/s.test(q));
    // The title changes, the body's reference stands: one read of the references, no transaction for them.
    const same = await statements('PATCH', `${url}/${number}`, { title: 'refers, renamed' }, 201);
    expect(scans(same)).toHaveLength(1);
    expect(await refsOn(a)).toBe(1);
    // A body naming another issue too: the new reference is written (read again in the transaction that writes it).
    const more = await statements('PATCH', `${url}/${number}`, { body: `see #${a} and #${b}` }, 201);
    expect(scans(more)).toHaveLength(2);
    expect(await refsOn(a)).toBe(1);
    expect(await refsOn(b)).toBe(1);
  });

  it('the feed and the mentions read no new issue or comment: its writer keeps what it wrote with the event', async () => {
    const url = '/api/v1/repos/owner/one/issues';
    const queries = await statements('POST', url, { title: 'read once', body: 'hello @u0' }, 201);
    expect(queries.filter((q) => /^SELECT "index", "title", "isPull", "content" FROM "Issue" WHERE/.test(q.trim()))).toHaveLength(0);
    const commentReads = (await statements('POST', `${url}/1/comments`, { body: 'hi @u0' }, 201)).filter((q) =>
      /^SELECT "content" FROM "Comment" WHERE "id"/.test(q.trim()),
    );
    // Only the notification job reads it (a job of its own, in another transaction's time).
    expect(commentReads).toHaveLength(1);
    // What the subscribers did with what they were given: the feed's entries and the mention's notification.
    const feed = await t.request('GET', '/api/v1/repos/owner/one/activities/feeds?limit=2', { headers: owner });
    expect(feed.statusCode).toBe(200);
    const [comment, created] = feed.json<{ op_type: string; content: string }[]>();
    expect(comment).toMatchObject({ op_type: 'comment_issue' });
    expect(comment!.content).toContain('hi @u0');
    expect(created).toMatchObject({ op_type: 'create_issue' });
    expect(created!.content).toContain('read once');
    const mentioned = await t.request('GET', '/api/v1/notifications?all=true', { headers: basic('u0') });
    expect(mentioned.json<{ subject: { title: string } }[]>().map((n) => n.subject.title)).toContain('read once');
    // Nor an edited body: the event carries the issue as the edit left it (test/notify/mentions.test.ts checks that
    // a mention added by an edit is delivered).
    const edited = await statements('PATCH', `${url}/1`, { body: 'hello @u0 again' }, 201);
    expect(edited.filter((q) => /^SELECT "index", "title", "isPull", "content" FROM "Issue" WHERE/.test(q.trim()))).toHaveLength(0);
    // Nor the repository's facts (visibility, owner, units): the feed takes those the write's gate read; only the
    // notification job reads them again, in its own time.
    const factsReads = (queries: string[]) => queries.filter((q) => /^SELECT r\."id", r\."ownerId", r\."isPrivate"/.test(q.trim()));
    expect(factsReads(await statements('POST', url, { title: 'facts once' }, 201))).toHaveLength(1);
    expect(factsReads(await statements('POST', `${url}/1/comments`, { body: 'facts once' }, 201))).toHaveLength(1);
    // The facts it took are the repository's: a private repository's rows are private.
    expect((await t.request('POST', '/api/v1/user/repos', { headers: owner, body: { name: 'hidden', private: true } })).statusCode).toBe(
      201,
    );
    await statements('POST', '/api/v1/repos/owner/hidden/issues', { title: 'private one' }, 201);
    await statements('POST', '/api/v1/repos/owner/hidden/issues/1/comments', { body: 'private too' }, 201);
    const rows = await t.db.action.findMany({ where: { repo: { name: 'hidden' } }, select: { opType: true, isPrivate: true } });
    expect(rows.map((r) => r.opType).sort()).toEqual(['COMMENT_ISSUE', 'CREATE_ISSUE', 'CREATE_REPO']);
    expect(rows.every((r) => r.isPrivate)).toBe(true);
  });

  it("answers a new issue, a new comment and the poster's edit with the viewer's row, not read again", async () => {
    const url = '/api/v1/repos/owner/one/issues';
    // What only the answers read: an issue view's posters, a comment view's attachments (the comment view's poster
    // read is the notification job's too; the answers below show it is the viewer's row).
    const answerReads = (queries: string[]) =>
      queries.filter((q) =>
        /^SELECT u\."id".* FROM "User" u WHERE u\."id" IN|^SELECT \* FROM "Attachment" WHERE "commentId" IN/.test(q.trim()),
      );
    expect(answerReads(await statements('POST', url, { title: 'answered' }, 201))).toEqual([]);
    expect(answerReads(await statements('POST', `${url}/1/comments`, { body: 'answered too' }, 201))).toEqual([]);
    expect(answerReads(await statements('PATCH', `${url}/1`, { body: 'edited by its poster' }, 201))).toEqual([]);
    // What the answers carry is what a read gives: the poster as GET shows it, and no attachments.
    const expected = (await t.request('GET', `${url}/1`, { headers: owner })).json<{ user: unknown }>().user;
    const issue = await t.request('POST', url, { headers: owner, body: { title: 'shape' } });
    expect(issue.json<{ user: unknown; assets: unknown[] }>()).toMatchObject({ user: expected, assets: [] });
    const comment = await t.request('POST', `${url}/1/comments`, { headers: owner, body: { body: 'shape' } });
    // A comment's poster is rendered as Gitea renders it there (its own converter): as GET answers the same comment.
    expect(comment.json<{ assets: unknown[] }>().assets).toEqual([]);
    const fetched = await t.request('GET', `/api/v1/repos/owner/one/issues/comments/${comment.json<{ id: number }>().id}`, {
      headers: owner,
    });
    expect(comment.json()).toEqual(fetched.json());
  });

  it('answers a new issue with the labels and assignees it linked, not read again, exactly as GET shows them', async () => {
    // The organization's repository: its labels and the organization's are usable.
    expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'guild' } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/orgs/guild/repos', { headers: owner, body: { name: 'hall' } })).statusCode).toBe(201);
    const repoLabel = await t.request('POST', '/api/v1/repos/guild/hall/labels', {
      headers: owner,
      body: { name: 'zeta', color: '#00aa00' },
    });
    const orgLabel = await t.request('POST', '/api/v1/orgs/guild/labels', {
      headers: owner,
      body: { name: 'alpha', color: '#aa0000', description: 'of the organization' },
    });
    const milestone = await t.request('POST', '/api/v1/repos/guild/hall/milestones', { headers: owner, body: { title: 'v1' } });
    for (const res of [repoLabel, orgLabel, milestone]) expect(res.statusCode, res.body).toBe(201);
    const collab = await t.request('PUT', '/api/v1/repos/guild/hall/collaborators/u3', { headers: owner, body: { permission: 'write' } });
    expect(collab.statusCode).toBe(204);
    // What only the view reads: the labels, assignees, projects and attachments of the issue.
    const viewReads = (queries: string[]) =>
      queries.filter((q) =>
        /FROM "IssueLabel" il JOIN "Label" l|FROM "IssueAssignee" a JOIN "User" u|FROM "ProjectIssue" pi JOIN "Project" p|FROM "Attachment" WHERE "issueId" IN/.test(
          q,
        ),
      );
    const url = '/api/v1/repos/guild/hall/issues';
    const body = {
      title: 'linked',
      labels: [repoLabel.json<{ id: number }>().id, orgLabel.json<{ id: number }>().id],
      assignees: ['u3', 'owner'],
      milestone: milestone.json<{ id: number }>().id,
    };
    expect(viewReads(await statements('POST', url, body, 201))).toEqual([]);
    const created = await t.request('POST', url, { headers: owner, body });
    const issue = created.json<{ number: number; labels: { name: string; url: string }[]; assignees: { login: string }[] }>();
    // Labels by name (the organization's first), assignees in the order given: as GET answers the same issue.
    expect(issue.labels.map((l) => l.name)).toEqual(['alpha', 'zeta']);
    expect(issue.labels[0]!.url).toMatch(/\/orgs\/guild\/labels\/\d+$/);
    expect(issue.labels[1]!.url).toMatch(/\/repos\/guild\/hall\/labels\/\d+$/);
    expect(issue.assignees.map((a) => a.login)).toEqual(['u3', 'owner']);
    expect(created.json()).toEqual((await t.request('GET', `${url}/${issue.number}`, { headers: owner })).json());
  });

  it('a plain edit (title, body) reads the issue once, before its transaction; a state change reads it locked in it', async () => {
    const url = '/api/v1/repos/owner/one/issues';
    const number = (await t.request('POST', url, { headers: owner, body: { title: 'to edit', body: 'old' } })).json<{ number: number }>()
      .number;
    // Reads of the row by id in the edit's transaction (up to its COMMIT; the jobs it set off read it afterwards).
    const rowReads = (queries: string[]) =>
      queries
        .slice(
          0,
          queries.findIndex((q) => q.trim() === 'COMMIT'),
        )
        .filter((q) => /^SELECT \* FROM "Issue" WHERE "id" = (\?|\$1)( FOR UPDATE OF "Issue")?$/.test(q.trim()));
    expect(rowReads(await statements('PATCH', `${url}/${number}`, { title: 'edited', body: 'new' }, 201))).toEqual([]);
    // A state change reads the row locked first (labels' counters depend on it).
    expect(rowReads(await statements('PATCH', `${url}/${number}`, { title: 'edited', state: 'closed' }, 201))).not.toEqual([]);
    // The answer is the row as the edit left it, as GET shows it; the timeline names what the title was.
    const edited = await t.request('PATCH', `${url}/${number}`, { headers: owner, body: { title: 'edited again', body: 'newer' } });
    expect(edited.json()).toEqual((await t.request('GET', `${url}/${number}`, { headers: owner })).json());
    expect(edited.json<{ title: string; body: string }>()).toMatchObject({ title: 'edited again', body: 'newer' });
    const changes = (await t.request('GET', `${url}/${number}/timeline`, { headers: owner }))
      .json<{ type: string; old_title: string; new_title: string }[]>()
      .filter((e) => e.type === 'change_title')
      .map((e) => [e.old_title, e.new_title]);
    expect(changes).toEqual([
      ['to edit', 'edited'],
      ['edited', 'edited again'],
    ]);
  });

  it('a new pull request is not read back by the feed or the mentions either', async () => {
    const repo = '/api/v1/repos/owner/one';
    const branch = await t.request('POST', `${repo}/branches`, {
      headers: owner,
      body: { new_branch_name: 'topic', old_branch_name: 'main' },
    });
    expect(branch.statusCode).toBe(201);
    const file = await t.request('POST', `${repo}/contents/topic.txt`, {
      headers: owner,
      body: { content: Buffer.from('topic\n').toString('base64'), branch: 'topic' },
    });
    expect(file.statusCode).toBe(201);
    const queries = await statements(
      'POST',
      `${repo}/pulls`,
      { head: 'topic', base: 'main', title: 'pull read once', body: 'see @u0' },
      201,
    );
    expect(queries.filter((q) => /^SELECT "index", "title", "isPull", "content" FROM "Issue" WHERE/.test(q.trim()))).toHaveLength(0);
    const [created] = (await t.request('GET', `${repo}/activities/feeds?limit=1`, { headers: owner })).json<
      { op_type: string; content: string }[]
    >();
    expect(created).toMatchObject({ op_type: 'create_pull_request' });
    expect(created!.content).toContain('pull read once');
    const mentioned = await t.request('GET', '/api/v1/notifications?all=true', { headers: basic('u0') });
    expect(mentioned.json<{ subject: { title: string } }[]>().map((n) => n.subject.title)).toContain('pull read once');
  });

  it("reads the path's repository once: the service takes what the path preflight found", async () => {
    // The read path's statement (src/services/access/repoAccess.ts), with SQLite's or PostgreSQL's placeholders.
    const byName = (queries: string[]) => queries.filter((q) => q.includes('FROM "Repository" r') && /"lowerName" = (\?|\$\d)/.test(q));
    // Issue creation and commenting: preflight (before the body is read) and service share one read.
    expect(byName(await statements('POST', '/api/v1/repos/owner/one/issues', { title: 'once' }, 201))).toHaveLength(1);
    const comment = await statements('POST', '/api/v1/repos/owner/one/issues/1/comments', { body: 'once' }, 201);
    expect(byName(comment)).toHaveLength(1);
    // The comment's answer names its repository from that read too, not from another.
    expect(comment.filter((q) => q.includes('SELECT "id", "name", "ownerName" FROM "Repository"'))).toEqual([]);
  });

  it('an assignee who cannot be assigned, or does not exist, is refused with 422 in the order given', async () => {
    // An organization is never assignable.
    expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'outsider' } })).statusCode).toBe(201);
    const url = '/api/v1/repos/owner/one/issues';
    const refused = await t.request('POST', url, { headers: owner, body: { title: 'x', assignees: ['u0', 'outsider', 'nobody'] } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ message: string }>().message).toMatch(/doesn't have access to repo/);
    const unknown = await t.request('POST', url, { headers: owner, body: { title: 'x', assignees: ['u0', 'nobody', 'outsider'] } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json<{ message: string }>().message).toMatch(
      /Assignee does not exist: \[name: user does not exist \[uid: 0, name: nobody\]\]/,
    );
  });

  it('32 concurrent issue creations: each 201, or 503 with Retry-After; never a 500', async () => {
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        t.request('POST', '/api/v1/repos/owner/ten/issues', { headers: owner, body: { title: `contended ${i}`, assignees: ['u1', 'u2'] } }),
      ),
    );
    for (const res of answers) {
      expect([201, 503], res.body.slice(0, 300)).toContain(res.statusCode);
      if (res.statusCode === 503) expect(res.headers['retry-after']).toBeDefined();
    }
    const created = answers.filter((r) => r.statusCode === 201).map((r) => r.json<{ number: number }>().number);
    expect(new Set(created).size).toBe(created.length);
  });
});
