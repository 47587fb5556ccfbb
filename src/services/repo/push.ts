import type { DbTx, Models } from '../../db/client.ts';
import { readCommitInfos, type CommitInfo } from '../../git/commitInfo.ts';
import { keptPushHead } from '../../git/listPushCommits.ts';
import { readCommit } from '../../git/readCommit.ts';
import { readableInProcess } from '../../git/inProcess.ts';
import { repoPath } from '../../git/repoPath.ts';
import { setDefaultHead } from './moveRefs.ts';
import { PUSH_JOB } from './pushJobKind.ts';
import type { RepoFacts } from '../../loaders/permissionLoaders.ts';
import { pushFeedRows } from '../../notify/activity.ts';
import type { RefUpdate } from '../../notify/events.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { recordedPusherId } from '../../auth/actionsUser.ts';
import { insertRows } from '../../db/insertRows.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { REPO_UPKEEP_JOB } from './upkeepJob.ts';

const ZERO = /^0+$/;
const BRANCH = 'refs/heads/';

/** Parses "<old> <new> <ref>" lines (git's hook input), keeping branches and tags only (refs/pull/* etc. are not ours). */
export function parseRefUpdates(lines: readonly string[]): RefUpdate[] {
  const updates: RefUpdate[] = [];
  for (const line of lines) {
    const m = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (refs\/(?:heads|tags)\/\S.*)$/.exec(line.trim());
    if (m?.[1] && m[2] && m[3]) updates.push({ oldSha: m[1], newSha: m[2], ref: m[3] });
  }
  return updates;
}

/** The first branch update that points somewhere (not a deletion). */
function pickDefaultBranch(current: string, branches: RefUpdate[]): string {
  const created = branches.filter((u) => !ZERO.test(u.newSha)).map((u) => u.ref.slice(BRANCH.length));
  if (!created.length || created.includes(current)) return current;
  return created[0] ?? current;
}

/** Heads up to this many are read in process; more in one `git show`. */
const HEADS_IN_PROCESS = 16;

/** What a Branch row keeps of its head commit. */
type HeadCommit = { message: string; when: string };

/**
 * The head commits of `heads`, by sha: from the commit lists the push's pre-receive read (keptPushHead), else a
 * usual push's few heads read in process (no git process to start), many (or a SHA-256 repository's) with one git
 * command.
 */
async function headCommits(gitDir: string, heads: readonly RefUpdate[]): Promise<Map<string, HeadCommit>> {
  const found = new Map<string, HeadCommit>();
  for (const u of heads) {
    const kept = await keptPushHead(gitDir, u.ref, u.oldSha, u.newSha);
    if (kept) found.set(u.newSha, { message: kept.Message, when: kept.Timestamp });
  }
  const shas = [...new Set(heads.map((u) => u.newSha))].filter((sha) => !found.has(sha));
  const inProcess = shas.length <= HEADS_IN_PROCESS && shas.every(readableInProcess);
  const infos: CommitInfo[] = inProcess
    ? await Promise.all(shas.map((sha) => readCommit(gitDir, sha)))
    : await readCommitInfos(gitDir, shas);
  for (const c of infos) found.set(c.sha, { message: c.message, when: c.committer.when });
  return found;
}

/**
 * The database half of a push that git applied (Gitea services/repository/push.go pushUpdates), in one
 * transaction: Branch rows (created, moved, or marked deleted, with the head commit's summary and time and
 * the pusher), `isEmpty`, the default branch of a repository that was empty, `updatedAt`, the feed rows
 * (commit_repo, push_tag, delete_branch …), the job that runs `git gc --auto` and measures the repository's size
 * (upkeepJob.ts), and whatever `inTx` adds (the push job's checkpoint); `repo.pushed` is published after the
 * commit. Run by the push job (services/repo/pushJob.ts), never twice for one push. `repo` is the repository's row
 * read under its lock (another push may have filled it since this one was authorized), `opts.facts` its access facts
 * when read with it; returns the row as the transaction left it.
 */
export async function recordPushRows(
  cx: ServiceContext,
  repo: Models.Repository,
  pusherId: number | null,
  updates: readonly RefUpdate[],
  inTx?: (tx: DbTx) => Promise<void>,
  opts: { mirror?: boolean; facts?: RepoFacts } = {},
): Promise<Models.Repository> {
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const branches = updates.filter((u) => u.ref.startsWith(BRANCH));
  const heads = branches.filter((u) => !ZERO.test(u.newSha));
  // Independent reads, at once: each git process costs milliseconds to start.
  const [commits, feed] = await Promise.all([
    headCommits(gitDir, heads),
    pusherId !== null && updates.length ? pushFeedRows(cx.db, cx.config, repo, pusherId, updates, opts) : [],
  ]);
  const now = new Date();

  let defaultBranch = repo.defaultBranch;
  if (repo.isEmpty && heads.length) {
    defaultBranch = pickDefaultBranch(repo.defaultBranch, branches);
    if (defaultBranch !== repo.defaultBranch) await setDefaultHead(gitDir, defaultBranch);
  }

  return withTx(cx, async (tx, emit) => {
    for (const u of branches) {
      const name = u.ref.slice(BRANCH.length);
      if (ZERO.test(u.newSha)) {
        await tx.branch.updateMany({ where: { repoId: repo.id, name }, data: { isDeleted: true, deletedById: pusherId, deletedAt: now } });
        continue;
      }
      const c = commits.get(u.newSha);
      const data = {
        commitId: u.newSha,
        commitMessage: (c?.message ?? '').split('\n')[0] ?? '',
        commitTime: c ? new Date(c.when) : now,
        pusherId,
        isDeleted: false,
        deletedById: null,
        deletedAt: null,
      };
      await tx.branch.upsert({
        where: { repoId_name: { repoId: repo.id, name } },
        create: { repoId: repo.id, name, ...data },
        update: data,
      });
    }
    const recorded = updates.length
      ? await tx.repository.update({
          where: { id: repo.id },
          data: {
            updatedAt: now,
            ...(repo.isEmpty && heads.length ? { isEmpty: false, defaultBranch } : {}),
          },
        })
      : repo;
    if (feed.length) await insertRows(tx, 'Action', feed);
    if (updates.length) await enqueue(tx, REPO_UPKEEP_JOB, { repoId: repo.id });
    if (inTx) await inTx(tx);
    if (pusherId !== null && updates.length) emit({ type: 'repo.pushed', repoId: repo.id, pusherId, updates: [...updates] });
    return recorded;
  });
}

/**
 * Records a ref update the API already made as a push by the viewer, through the push job, run now. The job is
 * held only after the ref moved, so a crash in between loses the bookkeeping: refs move through
 * services/repo/moveRefs.ts, which holds the job first. A failure is retried by the job workers, not reported here.
 * @public kept for callers on other branches
 */
export async function recordPush(cx: ServiceContext, repo: Models.Repository, updates: readonly RefUpdate[]): Promise<void> {
  if (!updates.length) return;
  const held = await cx.jobs.hold(PUSH_JOB, {
    repoId: repo.id,
    pusherId: recordedPusherId(cx.viewer),
    updates: [...updates],
    applied: [...updates],
  });
  await held.run();
}
