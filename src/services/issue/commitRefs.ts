// Pushed commits that reference issues (Gitea services/issue/commit.go UpdateIssuesCommit).
import type { Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { listPushCommits, type PushCommit } from '../../git/listPushCommits.ts';
import { repoPath } from '../../git/repoPath.ts';
import { repoPermissionLoader } from '../../loaders/permissionLoaders.ts';
import { canRead, canWrite, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { findRepoByName } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import type { AppliedPush } from '../repo/pushJob.ts';
import { setIssueStateBySystem } from './edit.ts';
import { unitOf } from './issue.ts';
import { findReferences } from './references.ts';

const ZERO = /^0+$/;
const BRANCH = 'refs/heads/';
/** Commits of one ref update that are scanned for references (Gitea's push commit list limit). */
const MAX_COMMITS = 100;

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');

/**
 * A push's follow-up (Gitea UpdateIssuesCommit): each pushed commit's message that references an issue the pusher
 * can read adds a COMMIT_REF comment there (once per commit); a closing or reopening keyword changes the issue's
 * state when the pusher could (a writer of its issues, a repository admin, or its poster) and the commit landed on
 * the default branch (or the branch the issue names in its `ref`; any branch with the repository's
 * close_issues_via_commit_in_any_branch). Pull requests are referenced, never closed.
 * Idempotent: a replayed push finds its comments and states already there.
 */
export async function issueReferencesFollowUp(cx: ServiceContext, push: AppliedPush): Promise<void> {
  const { repo, pusher } = push;
  if (!pusher) return;
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const perms = repoPermissionLoader(cx.db, pusher, {}, push.facts ? new Map([[push.facts.id, push.facts]]) : undefined);
  for (const u of push.updates) {
    if (!u.ref.startsWith(BRANCH) || ZERO.test(u.newSha)) continue;
    const branch = u.ref.slice(BRANCH.length);
    const { commits } = await listPushCommits(gitDir, u.ref, u.oldSha, u.newSha, MAX_COMMITS);
    // Oldest first, as Gitea walks its newest-first list backwards.
    for (const c of [...commits].reverse()) await commitReferences(cx, repo, pusher.id, perms, c, branch);
  }
}

async function commitReferences(
  cx: ServiceContext,
  repo: Models.Repository,
  pusherId: number,
  perms: ReturnType<typeof repoPermissionLoader>,
  c: PushCommit,
  branch: string,
): Promise<void> {
  const marked = new Set<string>();
  for (const ref of findReferences(c.Message, cx.config.rootUrl)) {
    const refRepo = ref.owner === '' ? repo : await findRepoByName(cx.db, ref.owner, ref.name);
    if (!refRepo) continue;
    const [issue] = await readRows(cx.db, 'Issue', 'SELECT * FROM "Issue" WHERE "repoId" = ? AND "index" = ?', [refRepo.id, ref.index]);
    if (!issue) continue;
    const key = `${issue.id}:${ref.action}`;
    if (marked.has(key)) continue;
    marked.add(key);
    const perm = await perms.load(refRepo.id);
    const canClose = isRepoAdmin(perm) || canWrite(perm, unitOf(issue)) || issue.posterId === pusherId;
    if (!canClose && !canRead(perm, unitOf(issue))) continue;
    const exists = await readRows<'Comment', { id: number }>(
      cx.db,
      'Comment',
      'SELECT "id" FROM "Comment" WHERE "issueId" = ? AND "type" = ? AND "commitSha" = ? LIMIT 1',
      [issue.id, 'COMMIT_REF', c.Sha1],
    );
    if (!exists.length) {
      const link = `/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
      const subject = c.Message.split('\n', 1)[0] ?? '';
      await cx.db.comment.create({
        data: {
          type: 'COMMIT_REF',
          posterId: pusherId,
          issueId: issue.id,
          commitSha: c.Sha1,
          content: `<a href="${escapeHtml(link)}/commit/${escapeHtml(encodeURIComponent(c.Sha1))}">${escapeHtml(subject)}</a>`,
        },
      });
    }
    if (issue.isPull || !canClose || ref.action === 'NONE') continue;
    if (!repo.closeIssuesViaCommitInAnyBranch) {
      const wanted = issue.ref !== '' ? issue.ref.replace(/^refs\/heads\//, '') : repo.defaultBranch;
      if (branch !== wanted) continue;
    }
    const close = ref.action === 'CLOSES';
    if (close !== issue.isClosed) await setIssueStateBySystem(cx, issue.id, close, pusherId, c.Sha1);
  }
}
