import { existsSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRef } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
const BOUNDARY = 'fgboundary33';
const multipart = (filename: string, content: string): Buffer =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachment"; filename="${filename}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
  );

describe.each(PROVIDERS)('REST issue delete and deadline (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const api = (p: string) => `/api/v1/repos/alice/proj/${p}`;
  const repoRow = () => t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', name: 'proj' } });
  const issueRow = async (index: number) => t.db.issue.findFirst({ where: { repoId: (await repoRow()).id, index } });
  const settle = async () => {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    await t.app.deps.notifier.drain();
  };
  const open = async (viewer: string, body: Record<string, unknown>): Promise<number> => {
    const res = await t.request('POST', api('issues'), { headers: as(viewer), body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().number as number;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'writer', 'adminc', 'reader', 'outsider']) await t.createUser(n);
    f = await PullFixture.start(t);
    const proj = await f.createRepo('alice', 'proj');
    await f.createRepo('alice', 'secret', { private: true });
    await addCollaborator(t, proj, { name: 'writer' }, 'write');
    await addCollaborator(t, proj, { name: 'adminc' }, 'admin');
    await addCollaborator(t, proj, { name: 'reader' }, 'read');
  });
  afterAll(async () => {
    f.dispose();
    await t.close();
  });

  it('deletes an issue with its comments, reactions, attachments (files too), references, dependencies, feed rows and counters', async () => {
    const label = (await t.request('POST', api('labels'), { headers: as('alice'), body: { name: 'bug', color: '#ff0000' } })).json();
    const milestone = (await t.request('POST', api('milestones'), { headers: as('alice'), body: { title: 'v1' } })).json();
    const one = await open('writer', { title: 'first' });
    const doomed = await open('writer', { title: 'doomed', body: `see #${one}`, labels: [label.id], milestone: milestone.id });
    const third = await open('writer', { title: 'third' });
    const dep = await t.request('POST', api(`issues/${third}/dependencies`), {
      headers: as('alice'),
      body: { owner: 'alice', repo: 'proj', index: doomed },
    });
    expect(dep.statusCode, dep.body).toBe(201);
    const comment = await t.request('POST', api(`issues/${doomed}/comments`), { headers: as('reader'), body: { body: 'a comment' } });
    expect(comment.statusCode).toBe(201);
    expect(
      (await t.request('POST', api(`issues/${doomed}/reactions`), { headers: as('reader'), body: { content: '+1' } })).statusCode,
    ).toBe(201);
    const upload = await t.app.server.inject({
      method: 'POST',
      url: api(`issues/${doomed}/assets`),
      headers: { ...basic('writer'), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipart('log.txt', 'attached bytes'),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const uuid = upload.json().uuid as string;
    const file = path.join(t.config.attachments.dir, uuid[0]!, uuid[1]!, uuid);
    expect(existsSync(file)).toBe(true);
    // Older than the sweep's grace period, as a file uploaded a while ago is.
    utimesSync(file, new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    expect((await t.request('PATCH', api(`issues/${doomed}`), { headers: as('alice'), body: { state: 'closed' } })).statusCode).toBe(201);
    await settle();

    const repo = await repoRow();
    const doomedRow = (await issueRow(doomed))!;
    const [first, last] = [(await issueRow(one))!, (await issueRow(third))!];
    expect(await t.db.comment.count({ where: { issueId: first.id, refIssueId: doomedRow.id } })).toBeGreaterThan(0);
    expect(await t.db.comment.count({ where: { issueId: last.id, dependentIssueId: doomedRow.id } })).toBeGreaterThan(0);
    expect(await t.db.action.count({ where: { repoId: repo.id, content: { startsWith: `${doomed}|` } } })).toBeGreaterThan(0);
    const before = { numIssues: repo.numIssues, numClosedIssues: repo.numClosedIssues };

    const res = await t.request('DELETE', api(`issues/${doomed}`), { headers: as('adminc') });
    expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
    await settle();

    expect(await issueRow(doomed)).toBeNull();
    expectGiteaError(await t.request('GET', api(`issues/${doomed}`), { headers: as('alice') }), 404);
    expect(
      await t.db.comment.count({
        where: { OR: [{ issueId: doomedRow.id }, { refIssueId: doomedRow.id }, { dependentIssueId: doomedRow.id }] },
      }),
    ).toBe(0);
    expect(await t.db.reaction.count({ where: { issueId: doomedRow.id } })).toBe(0);
    expect(await t.db.issueDependency.count({ where: { OR: [{ issueId: doomedRow.id }, { dependencyId: doomedRow.id }] } })).toBe(0);
    expect((await t.request('GET', api(`issues/${third}/dependencies`), { headers: as('alice') })).json()).toEqual([]);
    expect(await t.db.attachment.count({ where: { uuid } })).toBe(0);
    expect(existsSync(file)).toBe(false);
    const feed = await t.db.action.findMany({
      where: { repoId: repo.id, content: { startsWith: `${doomed}|` } },
      select: { opType: true },
    });
    expect(feed.map((a) => a.opType)).not.toContain('CREATE_ISSUE');
    expect(feed.map((a) => a.opType)).not.toContain('COMMENT_ISSUE');
    const after = await repoRow();
    expect({ numIssues: after.numIssues, numClosedIssues: after.numClosedIssues }).toEqual({
      numIssues: before.numIssues - 1,
      numClosedIssues: before.numClosedIssues - 1,
    });
    const m = (await t.request('GET', api(`milestones/${milestone.id}`), { headers: as('alice') })).json();
    expect({ open: m.open_issues, closed: m.closed_issues }).toEqual({ open: 0, closed: 0 });
    const l = await t.db.label.findUniqueOrThrow({ where: { id: label.id } });
    expect({ open: l.numIssues, closed: l.numClosedIssues }).toEqual({ open: 0, closed: 0 });
    // Its number is not given out again.
    expect(await open('writer', { title: 'next' })).toBe(third + 1);
  });

  it('deletes a pull request with its refs/pull/{index}/head', async () => {
    const index = await f.pushAndOpen('alice', 'proj', 'alice', 'feature', { 'f.txt': 'feature\n' });
    const gitDir = repoPath(t.config.repositoriesDir, 'alice', 'proj');
    expect(await readRef(gitDir, `refs/pull/${index}/head`)).toMatch(/^[0-9a-f]{40}$/);
    const before = await repoRow();
    expect((await t.request('DELETE', api(`issues/${index}`), { headers: as('alice') })).statusCode).toBe(204);
    expect(await readRef(gitDir, `refs/pull/${index}/head`)).toBeNull();
    expect(await t.db.pullRequest.count({ where: { index, baseRepoId: before.id } })).toBe(0);
    expect((await repoRow()).numPulls).toBe(before.numPulls - 1);
    expectGiteaError(await t.request('GET', api(`pulls/${index}`), { headers: as('alice') }), 404);
  });

  it('lets only repository admins delete; 404 for private things to outsiders, 401 anonymous, 403 for a token without issue write', async () => {
    const n = await open('writer', { title: 'kept' });
    const message = 'user should be an owner or a collaborator with admin write of a repository';
    for (const viewer of ['writer', 'reader', 'outsider'])
      expectGiteaError(await t.request('DELETE', api(`issues/${n}`), { headers: as(viewer) }), 403, message);
    expectGiteaError(await t.request('DELETE', api(`issues/${n}`)), 401, 'token is required');
    expectGiteaError(await t.request('DELETE', '/api/v1/repos/alice/secret/issues/1', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('DELETE', '/api/v1/repos/alice/secret/issues/1'), 404);
    expectGiteaError(await t.request('DELETE', api('issues/9999'), { headers: as('alice') }), 404);
    const readOnly = await t.createToken('alice', ['read:issue', 'write:repository']);
    expectGiteaError(await t.request('DELETE', api(`issues/${n}`), { headers: tokenAuth(readOnly) }), 403, /required scope/);
    expect(await issueRow(n)).not.toBeNull();
    const writeIssue = await t.createToken('alice', ['write:issue']);
    expect((await t.request('DELETE', api(`issues/${n}`), { headers: tokenAuth(writeIssue) })).statusCode).toBe(204);
  });

  it('sets and removes a deadline for writers (201 IssueDeadline, the day only), with its timeline entry', async () => {
    const n = await open('reader', { title: 'with a deadline' });
    const set = await t.request('POST', api(`issues/${n}/deadline`), {
      headers: as('writer'),
      body: { due_date: '2030-05-04T10:00:00+02:00' },
    });
    expect(set.statusCode, set.body).toBe(201);
    expect(set.json()).toEqual({ due_date: '2030-05-04T21:59:59Z' });
    const issue = (await t.request('GET', api(`issues/${n}`), { headers: as('reader') })).json();
    expect(new Date(issue.due_date as string).toISOString()).toBe('2030-05-04T21:59:59.000Z');
    const row = (await issueRow(n))!;
    expect(await t.db.comment.count({ where: { issueId: row.id, type: 'ADDED_DEADLINE' } })).toBe(1);
    const unset = await t.request('POST', api(`issues/${n}/deadline`), { headers: as('alice'), body: { due_date: null } });
    expect(unset.statusCode).toBe(201);
    expect(unset.json()).toEqual({ due_date: null });
    expect((await issueRow(n))!.deadlineAt).toBeNull();
    expect(await t.db.comment.count({ where: { issueId: row.id, type: 'REMOVED_DEADLINE' } })).toBe(1);

    // The poster who cannot write issues may not (Gitea: "Not repo writer").
    expectGiteaError(
      await t.request('POST', api(`issues/${n}/deadline`), { headers: as('reader'), body: { due_date: '2030-01-01T00:00:00Z' } }),
      403,
      'Not repo writer',
    );
    expectGiteaError(await t.request('POST', api(`issues/${n}/deadline`), { headers: as('alice'), body: {} }), 422);
    expectGiteaError(await t.request('POST', api(`issues/${n}/deadline`), { headers: as('alice'), body: { due_date: 'tomorrow' } }), 422);
    expectGiteaError(
      await t.request('POST', api(`issues/${n}/deadline`), { body: { due_date: '2030-01-01T00:00:00Z' } }),
      401,
      'token is required',
    );
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/secret/issues/1/deadline', {
        headers: as('outsider'),
        body: { due_date: '2030-01-01T00:00:00Z' },
      }),
      404,
    );
    const readOnly = await t.createToken('alice', ['read:issue']);
    expectGiteaError(
      await t.request('POST', api(`issues/${n}/deadline`), { headers: tokenAuth(readOnly), body: { due_date: '2030-01-01T00:00:00Z' } }),
      403,
      /required scope/,
    );
    expect((await issueRow(n))!.deadlineAt).toBeNull();
  });
});
