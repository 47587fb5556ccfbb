// `on: pull_request`, `issues` and `release`: the event writes a job in its own transaction; the job starts the
// matching workflows (at the pull request's head, the default branch's head, or the release's tag).
import { z } from 'zod';
import type { Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { readRefs } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { changedPaths } from '../../git/workflowFiles.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import { usersByIds } from '../../loaders/usersByIds.ts';
import type { DomainEvent } from '../../notify/events.ts';
import type { TxSubscriber } from '../../notify/notifier.ts';
import { createSystemContext, type AppDeps, type ServiceContext } from '../context.ts';
import { issueById } from '../issue/issue.ts';
import { startRunsForEvent } from './createRuns.ts';
import { pullRequestMatches, typesMatch } from './filters.ts';

const TriggerPayload = z.object({
  kind: z.enum(['issue', 'release']),
  id: z.number().int(),
  action: z.string(),
  actorId: z.number().int(),
});
type TriggerPayload = z.infer<typeof TriggerPayload>;

const ACTIONS_TRIGGER_JOB = jobKind('actions.trigger', TriggerPayload);

function payloadOf(event: DomainEvent): TriggerPayload | null {
  switch (event.type) {
    case 'issue.created':
      return { kind: 'issue', id: event.issueId, action: 'opened', actorId: event.actorId };
    case 'issue.closed':
      return { kind: 'issue', id: event.issueId, action: 'closed', actorId: event.actorId };
    case 'issue.reopened':
      return { kind: 'issue', id: event.issueId, action: 'reopened', actorId: event.actorId };
    case 'pull.pushed':
      return { kind: 'issue', id: event.issueId, action: 'synchronize', actorId: event.actorId };
    case 'release.published':
      return { kind: 'release', id: event.releaseId, action: 'published', actorId: event.actorId };
    default:
      return null;
  }
}

/** Writes the trigger job of every event that may start workflows, in the event's transaction. */
export function actionsTriggerSubscriber(): TxSubscriber {
  return {
    name: 'actions-triggers',
    async handle(tx, event) {
      const payload = payloadOf(event);
      if (payload) await enqueue(tx, ACTIONS_TRIGGER_JOB, payload);
    },
  };
}

const repoPayload = (repo: Models.Repository) => ({
  id: repo.id,
  name: repo.name,
  full_name: `${repo.ownerName}/${repo.name}`,
  default_branch: repo.defaultBranch,
});

async function issueEvent(cx: ServiceContext, p: TriggerPayload, sender: Record<string, unknown>): Promise<void> {
  const issue = await issueById(cx.db, p.id);
  if (!issue) return;
  const [[repo], [pull]] = await Promise.all([
    readRows(cx.db, 'Repository', 'SELECT * FROM "Repository" WHERE "id" = ?', [issue.repoId]),
    issue.isPull ? readRows(cx.db, 'PullRequest', 'SELECT * FROM "PullRequest" WHERE "issueId" = ?', [issue.id]) : [],
  ]);
  if (!repo) return;
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  if (issue.isPull && pull) {
    const ref = `refs/pull/${pull.index}/head`;
    const sha = (await readRefs(gitDir, [ref])).get(ref);
    if (!sha) return;
    const mergeBase = pull.mergeBase;
    await startRunsForEvent(cx, {
      repo,
      event: 'pull_request',
      ref,
      commitSha: sha,
      triggerUserId: p.actorId,
      title: issue.title,
      payload: {
        action: p.action,
        number: pull.index,
        pull_request: { number: pull.index, title: issue.title, head: { ref: pull.headBranch, sha }, base: { ref: pull.baseBranch } },
        repository: repoPayload(repo),
        sender,
      },
      ...(mergeBase ? { changedFiles: () => changedPaths(gitDir, mergeBase, sha) } : {}),
      matches: (filter, changed) => pullRequestMatches(filter, p.action, pull.baseBranch, changed),
    });
    return;
  }
  const ref = `refs/heads/${repo.defaultBranch}`;
  const sha = (await readRefs(gitDir, [ref])).get(ref);
  if (!sha) return;
  await startRunsForEvent(cx, {
    repo,
    event: 'issues',
    ref,
    commitSha: sha,
    triggerUserId: p.actorId,
    title: issue.title,
    payload: { action: p.action, issue: { number: issue.index, title: issue.title }, repository: repoPayload(repo), sender },
    matches: (filter) => typesMatch(filter, p.action),
  });
}

async function releaseEvent(cx: ServiceContext, p: TriggerPayload, sender: Record<string, unknown>): Promise<void> {
  const release = await cx.db.release.findUnique({ where: { id: p.id }, include: { repo: true } });
  if (!release?.sha1) return;
  await startRunsForEvent(cx, {
    repo: release.repo,
    event: 'release',
    ref: `refs/tags/${release.tagName}`,
    commitSha: release.sha1,
    triggerUserId: p.actorId,
    payload: {
      action: p.action,
      release: { tag_name: release.tagName, name: release.title },
      repository: repoPayload(release.repo),
      sender,
    },
    matches: (filter) => typesMatch(filter, p.action),
  });
}

/** The trigger job: idempotent, as starting runs is per (workflow, commit, ref, event). */
export function actionsTriggerHandler(deps: AppDeps): JobHandler<TriggerPayload> {
  return defineHandler(ACTIONS_TRIGGER_JOB, async (p) => {
    const cx = createSystemContext(deps);
    const [actor] = await usersByIds(cx.db, [p.actorId]);
    const sender = actor ? { id: actor.id, login: actor.name, username: actor.name } : {};
    if (p.kind === 'issue') await issueEvent(cx, p, sender);
    else await releaseEvent(cx, p, sender);
  });
}
