import type { Models } from '../../db/client.ts';
import { quarantineEnv } from '../../git/pushProbe.ts';
import { readPushCommitLists } from '../../git/listPushCommits.ts';
import { readRefs } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { defineHandler, type JobHandler } from '../../jobs/jobKind.ts';
import type { HeldJob } from '../../jobs/worker.ts';
import type { RefUpdate } from '../../notify/events.ts';
import { findRepoWithFactsById } from '../access/repoAccess.ts';
import { createSystemContext, type AppDeps, type ServiceContext } from '../context.ts';
import { requirePushAllowed } from '../protection/branchGate.ts';
import { requireTagUpdatesAllowed } from '../protection/tagGate.ts';
import { gitProbe } from './moveRefs.ts';
import { withRefLocks } from './refLocks.ts';
import { parseRefUpdates, recordPushRows } from './push.ts';
import { PUSH_JOB, type PushPayload } from './pushJobKind.ts';
import { recordedPusherId } from '../../auth/actionsUser.ts';
import { usersByIds } from '../../loaders/usersByIds.ts';
import type { RepoFacts } from '../../loaders/permissionLoaders.ts';

const ZERO = /^0+$/;

/**
 * A push as the follow-ups see it: the updates git applied, the repository's row as the push's rows left it, its
 * access facts when read with it (a push changes none of them) and the pusher's row (null once the account is gone),
 * read once for all of them.
 */
export interface AppliedPush {
  repoId: number;
  repo: Models.Repository;
  facts?: RepoFacts | undefined;
  pusherId: number;
  pusher: Models.User | null;
  updates: RefUpdate[];
}

/** Work that follows the rows of a push (pull request refresh, manual-merge detection); must be idempotent. */
export type PushFollowUp = (cx: ServiceContext, push: AppliedPush) => Promise<void>;

/** The updates of `intended` that git shows as done now (a deletion: the ref is gone). */
async function appliedFromGit(repo: Models.Repository, reposDir: string, intended: readonly RefUpdate[]): Promise<RefUpdate[]> {
  const current = await readRefs(
    repoPath(reposDir, repo.ownerName, repo.name),
    intended.map((u) => u.ref),
  );
  return intended.filter((u) => (ZERO.test(u.newSha) ? !current.has(u.ref) : current.get(u.ref) === u.newSha));
}

/**
 * The push job's handler: records the rows once (their transaction also stores the checkpoint), then runs the
 * follow-ups in order, which may repeat safely. After a crash the applied updates are read back from git.
 */
export function pushJobHandler(deps: AppDeps, followUps: readonly PushFollowUp[]): JobHandler<PushPayload> {
  return defineHandler(PUSH_JOB, async (payload, run) => {
    const cx = createSystemContext(deps);
    const found = await findRepoWithFactsById(deps.db, payload.repoId);
    if (!found) return;
    let { repo } = found;
    const applied = payload.applied ?? (await appliedFromGit(repo, deps.config.repositoriesDir, payload.updates));
    if (!payload.recorded) {
      repo = await recordPushRows(
        cx,
        repo,
        payload.pusherId,
        applied,
        (tx) => run.checkpoint(tx, { ...payload, applied, recorded: true }),
        {
          mirror: payload.mirror ?? false,
          facts: found.facts,
        },
      );
    }
    const { pusherId } = payload;
    if (pusherId === null || !applied.length) return;
    const [pusher = null] = await usersByIds(deps.db, [pusherId]);
    const push = { repoId: repo.id, repo, facts: found.facts, pusherId, pusher, updates: applied };
    for (const followUp of followUps) await followUp(cx, push);
  });
}

/** The bookkeeping of one push over git (smart HTTP or SSH), from its pre-receive hook to the end of receive-pack. */
export interface PushRecorder {
  /** pre-receive: records the push job (held by this process) before git moves any ref. */
  intend(lines: readonly string[]): Promise<void>;
  /** post-receive (installed with custom hooks only): the updates git applied. */
  applied(lines: readonly string[]): void;
  /**
   * After receive-pack exited: whether any ref moved (post-receive's report, else the refs read back from git;
   * the push still holds their locks, so no other writer moved them since).
   */
  hasApplied(): Promise<boolean>;
  /** After receive-pack exited: runs the held job with the updates git applied. */
  finish(): Promise<void>;
}

/** Branch protection of a push (pre-receive), asking git with the push's quarantined objects (`env`). @throws PermissionDeniedError */
async function checkBranchProtection(
  cx: ServiceContext,
  repo: Models.Repository,
  gitDir: string,
  env: Record<string, string>,
  updates: RefUpdate[],
) {
  const branches = updates
    .filter((u) => u.ref.startsWith('refs/heads/'))
    .map((u) => ({ branch: u.ref.slice('refs/heads/'.length), oldSha: u.oldSha, newSha: u.newSha }));
  await requirePushAllowed(cx, repo, branches, gitProbe(gitDir, env));
}

/**
 * Takes the write lock of a push for a section that ends when `release` is called: resolves once the lock is held
 * (receive-pack's hooks start and end the section in different calls). A push holds the refs it updates
 * (withRefLocks), so writers of other refs of the repository run beside it.
 */
async function holdPushLock(cx: ServiceContext, repo: Models.Repository, updates: readonly RefUpdate[]): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const section = async (acquired: () => void) => {
    acquired();
    await released;
  };
  await new Promise<void>((acquired, failed) => {
    withRefLocks(
      cx,
      repo,
      updates.map((u) => u.ref),
      () => section(acquired),
    ).catch(failed);
  });
  return release;
}

/**
 * Who a push is recorded as: the viewer (none for the `gitea-actions` user, see recordedPusherId), or for a
 * deploy key the repository's owner, as Gitea's serv records it (a deploy key is nobody).
 */
function pusherOf(cx: ServiceContext, repo: Models.Repository): number | null {
  return cx.auth.sshKey?.deploy ? repo.ownerId : recordedPusherId(cx.viewer);
}

/**
 * Starts the bookkeeping of a push by the viewer (or a deploy key) to `repo`. From pre-receive to the end of the bookkeeping the
 * push holds the write lock of its refs (holdPushLock): git moves them and the job records them with no other writer of them.
 */
export function beginPush(cx: ServiceContext, repo: Models.Repository): PushRecorder {
  let held: HeldJob<PushPayload> | null = null;
  let intended: RefUpdate[] = [];
  let applied: RefUpdate[] | null = null;
  let unlock: (() => void) | null = null;
  const appliedNow = async (): Promise<RefUpdate[]> =>
    (applied ??= intended.length ? await appliedFromGit(repo, cx.config.repositoriesDir, intended) : []);
  return {
    async intend(lines) {
      intended = parseRefUpdates(lines);
      if (!intended.length) return;
      const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
      const quarantine = lines.find((l) => l.startsWith('quarantine '))?.slice('quarantine '.length) ?? '';
      const env = quarantineEnv(gitDir, quarantine);
      await checkBranchProtection(cx, repo, gitDir, env, intended);
      await requireTagUpdatesAllowed(cx, repo, intended);
      // The feed's commit lists, read from the quarantined objects while the push waits for the lock and is recorded
      // as a job (listPushCommits keeps them for the bookkeeping): concurrent pushes to one repository do not run
      // their `git log` one after another inside the lock. Awaited before git may move the objects.
      const listed = readPushCommitLists(gitDir, intended, env);
      try {
        unlock = await holdPushLock(cx, repo, intended);
        held = await cx.jobs.hold(PUSH_JOB, { repoId: repo.id, pusherId: pusherOf(cx, repo), updates: intended });
      } finally {
        await listed;
      }
    },
    applied(lines) {
      applied = parseRefUpdates(lines);
    },
    async hasApplied() {
      return held !== null && (await appliedNow()).length > 0;
    },
    async finish() {
      const release = unlock;
      unlock = null;
      try {
        if (!held) return;
        const job = held;
        held = null;
        await job.run({ repoId: repo.id, pusherId: pusherOf(cx, repo), updates: intended, applied: await appliedNow() });
      } finally {
        release?.();
      }
    },
  };
}
