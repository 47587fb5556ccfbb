import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { enqueue } from '../../src/jobs/enqueue.ts';
import { NOTIFICATION_JOB, notificationPayloadOf } from '../../src/notify/notificationJob.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createComment, createRepo } from '../helpers/fixtures.ts';
import { contextFor } from '../helpers/org.ts';
import * as issueService from '../../src/services/issue/create.ts';

/** The fan-out job: written in the emitting transaction, and its SQL depends on the event, not on the audience. */
describe.each(PROVIDERS)('notification fan-out job (%s)', (provider) => {
  let t: TestApp;
  let poster: Models.User;
  let commenter: Models.User;

  async function issueWithWatchers(name: string, watchers: number): Promise<Models.Issue> {
    const owner = await t.createUser(`${name}owner`);
    const repo = await createRepo(t, owner, name);
    const users = await Promise.all(Array.from({ length: watchers }, (_, i) => t.createUser(`${name}w${i}`)));
    await t.db.watch.createMany({ data: users.map((u) => ({ userId: u.id, repoId: repo.id, mode: 'NORMAL' as const })) });
    const view = await issueService.createIssue(contextFor(t, poster), { owner: owner.name, repo: name }, { title: `${name} issue` });
    await t.app.jobs.drain();
    return view.issue;
  }

  /** Statements the worker runs for the jobs of one comment. */
  async function fanOutStatements(issue: Models.Issue): Promise<number> {
    await createComment(t, commenter, issue, 'hello');
    await t.app.deps.notifier.drain();
    t.queries.length = 0;
    await t.app.jobs.drain();
    return t.queries.length;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    poster = await t.createUser('poster');
    commenter = await t.createUser('commenter');
  });
  afterAll(() => t.close());

  it('maps events to audiences: broadcasts, the new-pull set, targets; nothing for other events', () => {
    expect(notificationPayloadOf({ type: 'issue.created', issueId: 1, repoId: 1, index: 1, isPull: false, actorId: 2 })).toMatchObject({
      audience: 'broadcast',
      mentionsIn: { issue: true },
    });
    expect(notificationPayloadOf({ type: 'issue.created', issueId: 1, repoId: 1, index: 1, isPull: true, actorId: 2 })).toMatchObject({
      audience: 'newPull',
    });
    expect(
      notificationPayloadOf({ type: 'issue.assigned', issueId: 1, repoId: 1, index: 1, assigneeIds: [5, 6], actorId: 2 }),
    ).toMatchObject({ audience: 'targets', targets: [5, 6] });
    expect(
      notificationPayloadOf({
        type: 'pull.reviewRequested',
        issueId: 1,
        repoId: 1,
        index: 1,
        reviewerId: null,
        teamId: 3,
        commentId: 9,
        actorId: 2,
      }),
    ).toBeNull();
    expect(notificationPayloadOf({ type: 'issue.updated', issueId: 1, repoId: 1, index: 1, actorId: 2, fields: ['labels'] })).toBeNull();
    // A title change notifies only when it takes a pull request out of work in progress, which has its own event.
    expect(
      notificationPayloadOf({ type: 'issue.updated', issueId: 1, repoId: 1, index: 1, actorId: 2, fields: ['title'], old: { title: 'a' } }),
    ).toBeNull();
    expect(notificationPayloadOf({ type: 'pull.readyForReview', issueId: 1, repoId: 1, index: 1, actorId: 2 })).toMatchObject({
      audience: 'broadcast',
      mentionsIn: null,
    });
  });

  it('concurrent fan-outs of one issue end with one thread per user and no failed job', async () => {
    const issue = await issueWithWatchers('race', 6);
    await t.db.notification.deleteMany({ where: { issueId: issue.id } });
    const payload = notificationPayloadOf({
      type: 'comment.created',
      commentId: 0,
      issueId: issue.id,
      repoId: issue.repoId,
      index: 1,
      isPull: false,
      actorId: commenter.id,
    })!;
    const ids = await Promise.all(
      Array.from({ length: 4 }, () => enqueue(t.db, NOTIFICATION_JOB, { ...payload, commentId: null, mentionsIn: null })),
    );
    await t.app.jobs.drain();
    const jobs = await t.db.job.findMany({ where: { id: { in: ids } }, select: { status: true, attempts: true } });
    expect(jobs.map((j) => j.status)).toEqual(['DONE', 'DONE', 'DONE', 'DONE']);
    expect(await t.db.notification.count({ where: { issueId: issue.id } })).toBe(8);
  });

  it('a comment writes its job in the same transaction; the job runs in a constant number of statements', async () => {
    const small = await issueWithWatchers('small', 3);
    const large = await issueWithWatchers('large', 40);
    const before = await t.db.job.count({ where: { kind: NOTIFICATION_JOB.name } });
    const a = await fanOutStatements(small);
    const b = await fanOutStatements(large);
    expect(await t.db.job.count({ where: { kind: NOTIFICATION_JOB.name } })).toBe(before + 2);
    expect(await t.db.notification.count({ where: { issueId: large.id } })).toBe(42);
    expect(b).toBe(a);
  });
});
