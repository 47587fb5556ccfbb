// push, create, delete (Gitea services/webhook/notifier.go PushCommits, CreateRef, DeleteRef), and
// pull_request_sync for the open pull requests whose head branch moved.
import { verifyCommits, type CommitVerification } from '../../services/gpg/verifyCommits.ts';
import { readCommitsWithFiles } from '../../git/commitFileStatus.ts';
import { readCommitInfos, type CommitInfo } from '../../git/commitInfo.ts';
import { listPushCommits } from '../../git/listPushCommits.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import type { RefUpdate } from '../../notify/events.ts';
import { toApiPayloadCommit } from '../../rest/convert/git.ts';
import { toApiPullRequest } from '../../rest/convert/pull.ts';
import type { PayloadCommit } from '../../rest/structs/git.ts';
import * as pullService from '../../services/pull/pull.ts';
import type { OutgoingEvent } from './outgoing.ts';
import type { PayloadContext } from '../payloadContext.ts';

const ZERO = /^0+$/;
/** Gitea truncates a push's commits to UI.FEED_MAX_COMMIT_NUM (5); total_commits counts them all. */
const MAX_COMMITS = 5;

/**
 * Gitea's PayloadCommit JSON of commits of a repository (authors matched to accounts by e-mail), in the order of
 * `shas`; with `files`, each lists the paths it added, removed and modified (push payloads), read for all the
 * commits in one git command.
 */
export async function payloadCommits(
  pc: PayloadContext,
  repoId: number,
  shas: readonly string[],
  opts: { files?: boolean } = {},
): Promise<PayloadCommit[]> {
  const row = await pc.repoRow(repoId);
  if (!row || !shas.length) return [];
  const gitDir = repoPath(pc.cx.config.repositoriesDir, row.ownerName, row.name);
  const infos: CommitInfo[] = await (opts.files ? readCommitsWithFiles(gitDir, shas) : readCommitInfos(gitDir, shas)).catch(() => []);
  const emails = [...new Set(infos.flatMap((c) => [c.author.email.toLowerCase(), c.committer.email.toLowerCase()]))];
  const owners = await pc.cx.db.emailAddress.findMany({
    where: { lowerEmail: { in: emails } },
    include: { user: { select: { name: true } } },
  });
  const usernames = new Map(owners.map((e) => [e.lowerEmail, e.user.name]));
  const verified = await verifyCommits(
    pc.cx,
    gitDir,
    infos.map((c) => c.sha),
  ).catch(() => new Map<string, CommitVerification>());
  return infos.map((c) => toApiPayloadCommit(row, c, usernames, pc.opts.rootUrl, verified.get(c.sha) ?? null));
}

/** A push's payloads: one `push` per updated ref, `create` for new refs, `delete` for removed ones. */
export async function pushEvents(
  pc: PayloadContext,
  repoId: number,
  pusherId: number,
  updates: readonly RefUpdate[],
): Promise<OutgoingEvent[]> {
  const row = await pc.repoRow(repoId);
  const repository = await pc.repo(repoId);
  if (!row || !repository) return [];
  const gitDir = repoPath(pc.cx.config.repositoriesDir, row.ownerName, row.name);
  const sender = await pc.user(pusherId);
  const isBranch = (u: RefUpdate) => !u.ref.startsWith('refs/tags/') && !ZERO.test(u.newSha);
  // The commits of every branch update, then all of them (and each new head) read at once, with their files.
  const listings = await Promise.all(
    updates.map((u) =>
      isBranch(u)
        ? listPushCommits(gitDir, u.ref, u.oldSha, u.newSha, MAX_COMMITS).catch(() => ({ commits: [], total: 0 }))
        : { commits: [], total: 0 },
    ),
  );
  const wanted = new Set(updates.flatMap((u, i) => (isBranch(u) ? [...listings[i]!.commits.map((c) => c.Sha1), u.newSha] : [])));
  const read = await payloadCommits(pc, repoId, [...wanted], { files: true });
  const bySha = new Map(read.map((c) => [c.id, c]));
  const out: OutgoingEvent[] = [];
  for (const [i, u] of updates.entries()) {
    const isTag = u.ref.startsWith('refs/tags/');
    const short = u.ref.replace(/^refs\/(heads|tags)\//, '');
    const refType = isTag ? 'tag' : 'branch';
    const branch = isTag ? undefined : short;
    const at = branch === undefined ? {} : { branch };
    if (ZERO.test(u.newSha)) {
      out.push({ eventType: 'delete', repoId, ...at, payload: { ref: short, ref_type: refType, pusher_type: 'user', repository, sender } });
      continue;
    }
    if (ZERO.test(u.oldSha)) {
      out.push({ eventType: 'create', repoId, ...at, payload: { sha: u.newSha, ref: short, ref_type: refType, repository, sender } });
    }
    const listed = listings[i]!;
    const commits = listed.commits.flatMap((c) => bySha.get(c.Sha1) ?? []);
    // A tag's head is its commit (an annotated tag's object is peeled), read on its own.
    const head = isTag ? ((await payloadCommits(pc, repoId, [u.newSha]))[0] ?? null) : (bySha.get(u.newSha) ?? null);
    const compare = ZERO.test(u.oldSha) ? '' : `${row.ownerName}/${row.name}/compare/${u.oldSha}...${u.newSha}`;
    out.push({
      eventType: 'push',
      repoId,
      ...at,
      commitCount: listed.total,
      payload: {
        ref: u.ref,
        before: u.oldSha,
        after: u.newSha,
        compare_url: `${pc.opts.rootUrl}${compare}`,
        commits,
        total_commits: listed.total,
        head_commit: head,
        repository,
        pusher: sender,
        sender,
      },
    });
    if (!isTag && !ZERO.test(u.oldSha)) out.push(...(await syncEvents(pc, repoId, short, u, pusherId)));
  }
  return out;
}

/** pull_request_sync / synchronized for each open pull request whose head is the pushed branch. */
async function syncEvents(
  pc: PayloadContext,
  headRepoId: number,
  branch: string,
  u: RefUpdate,
  pusherId: number,
): Promise<OutgoingEvent[]> {
  const pulls = await pc.cx.db.pullRequest.findMany({
    where: { headRepoId, headBranch: branch, hasMerged: false, issue: { isClosed: false } },
    include: { issue: true },
  });
  const out: OutgoingEvent[] = [];
  for (const p of pulls) {
    const view = await pullService.loadPullView(pc.cx, p.issue);
    out.push({
      eventType: 'pull_request_sync',
      repoId: p.baseRepoId,
      payload: {
        action: 'synchronized',
        before: u.oldSha,
        after: u.newSha,
        number: p.issue.index,
        pull_request: toApiPullRequest(view, null, pc.opts),
        requested_reviewer: null,
        repository: await pc.repo(p.baseRepoId),
        sender: await pc.user(pusherId),
        commit_id: '',
        review: null,
      },
    });
  }
  return out;
}

/** Gitea TestHook: a push of the head commit of `ref` (before = after), sent to one hook whatever it subscribes to. */
export async function testPushEvent(pc: PayloadContext, repoId: number, ref: string, actorId: number): Promise<OutgoingEvent | null> {
  const row = await pc.repoRow(repoId);
  if (!row) return null;
  const gitDir = repoPath(pc.cx.config.repositoriesDir, row.ownerName, row.name);
  const resolved = await resolveRef(gitDir, ref);
  if (!resolved) return null;
  const commits = await payloadCommits(pc, repoId, [resolved.commit]);
  const sender = await pc.user(actorId);
  const fullRef = resolved.kind === 'tag' ? `refs/tags/${ref}` : resolved.kind === 'branch' ? `refs/heads/${ref}` : ref;
  return {
    eventType: 'push',
    repoId,
    commitCount: 1,
    payload: {
      ref: fullRef,
      before: resolved.commit,
      after: resolved.commit,
      compare_url: pc.opts.rootUrl,
      commits,
      total_commits: 1,
      head_commit: commits[0] ?? null,
      repository: await pc.repo(repoId),
      pusher: sender,
      sender,
    },
  };
}
