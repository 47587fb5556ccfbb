import type { Models } from '../../db/client.ts';
import { usersByIds } from '../../loaders/usersByIds.ts';
import { readRows } from '../../db/readPath.ts';
import { NotFoundError, PermissionDeniedError, RepoArchivedError } from '../../errors.ts';
import { readRefs } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { canRead, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepo, requireRepoWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { issueById, loadIssueViews } from '../issue/issue.ts';
import { TEAM_INCLUDE } from '../access/teamAccess.ts';
import { loadApiRepoRows, withPermissions } from '../repo/repoRows.ts';
import { refreshStaleStats } from './stats.ts';
import type { PullRows, PullView } from './types.ts';
import { reviewRequestReadWhere } from './visibility.ts';

/** `refs/pull/{index}/head`: the pull request's head commit, kept in the base repository. */
export const pullHeadRef = (index: number): string => `refs/pull/${index}/head`;

/** The bare repository directory of a repository row. */
export const gitDirOf = (cx: ServiceContext, repo: Pick<Models.Repository, 'ownerName' | 'name'>): string =>
  repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);

/**
 * Gitea's gates for /repos/{o}/{r}/pulls…: token scope (repository), repository visible (404), pull requests
 * unit enabled and readable (mustAllowPulls, 404), code readable (reqRepoReader(code), 403); writes then pass the
 * write gate (requireRepoWrite) and need a signed-in viewer (401) and a repository that is not archived (423).
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError
 */
export async function resolvePullRepo(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<RepoAccess> {
  requireTokenScope(cx, 'repository', level);
  const access = await requireRepo(cx, ref.owner, ref.repo);
  if (!canRead(access.perm, 'PULL_REQUESTS')) throw new NotFoundError('not found', { repoId: access.repo.id, unit: 'PULL_REQUESTS' });
  if (!canRead(access.perm, 'CODE') && !isRepoAdmin(access.perm)) {
    throw new PermissionDeniedError('user should have specific read permission or be a repo admin or a site admin', { unit: 'CODE' });
  }
  if (level === 'read') return access;
  requireRepoWrite(cx, access, 'write:repository');
  requireViewer(cx);
  if (access.repo.isArchived) throw new RepoArchivedError();
  return access;
}

/**
 * The pull request numbered `index` in the repository (Gitea GetPullRequestByIndex); an issue number that is
 * not a pull request is not found either.
 * @throws NotFoundError
 */
export async function findPullByIndex(cx: ServiceContext, access: RepoAccess, index: number): Promise<PullRows> {
  const [pull, sameIndex] =
    Number.isSafeInteger(index) && index > 0
      ? await Promise.all([
          readRows(cx.db, 'PullRequest', 'SELECT * FROM "PullRequest" WHERE "baseRepoId" = ? AND "index" = ?', [access.repo.id, index]),
          // The pull request's issue has its number in the base repository: both rows in one round trip.
          readRows(cx.db, 'Issue', 'SELECT * FROM "Issue" WHERE "repoId" = ? AND "index" = ?', [access.repo.id, index]),
        ]).then(([pulls, issues]) => [pulls[0], issues[0]] as const)
      : [undefined, undefined];
  const issue = pull && (sameIndex?.id === pull.issueId ? sameIndex : await issueById(cx.db, pull.issueId));
  if (!pull || !issue) {
    throw new NotFoundError(
      `pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: ${access.repo.id}, head_branch: , base_branch: ]`,
      {
        repoId: access.repo.id,
        index,
      },
    );
  }
  return { issue, pull };
}

/** Reads the branch tips and pull refs of many pull requests: one `for-each-ref` per repository involved. */
async function readPullRefs(
  cx: ServiceContext,
  pulls: readonly Models.PullRequest[],
  repos: ReadonlyMap<number, Pick<Models.Repository, 'ownerName' | 'name'>>,
): Promise<Map<number, Map<string, string>>> {
  const wanted = new Map<number, Set<string>>();
  const want = (repoId: number | null, ref: string) => {
    if (repoId === null || !repos.has(repoId)) return;
    const set = wanted.get(repoId) ?? new Set<string>();
    set.add(ref);
    wanted.set(repoId, set);
  };
  for (const p of pulls) {
    want(p.baseRepoId, `refs/heads/${p.baseBranch}`);
    want(p.baseRepoId, pullHeadRef(p.index));
    want(p.headRepoId, `refs/heads/${p.headBranch}`);
  }
  const out = new Map<number, Map<string, string>>();
  await Promise.all(
    [...wanted].map(async ([repoId, refs]) => {
      const repo = repos.get(repoId);
      if (repo) out.set(repoId, await readRefs(gitDirOf(cx, repo), [...refs]).catch(() => new Map<string, string>()));
    }),
  );
  return out;
}

/**
 * Loads many pull requests (their issue rows, `isPull`) with every relation their REST and GraphQL forms need,
 * in a constant number of queries, keeping the input order: the IssueView parts, the pull request row, base
 * and head repositories with the viewer's permission (an invisible head repository is null), the merger, the
 * pending review requests, the code comment count, and the current branch tips (one `git for-each-ref` per
 * repository). Open pull requests whose cached stats no longer match the current tips are recomputed and
 * stored first (never when they match).
 */
export async function loadPullViews(
  cx: ServiceContext,
  issues: readonly Models.Issue[],
  known: readonly Models.Repository[] = [],
  knownPulls: readonly Models.PullRequest[] = [],
): Promise<PullView[]> {
  const base = await loadIssueViews(cx.db, issues, known, knownPulls);
  const pulls = base.flatMap((v) => (v.pull ? [v.pull] : []));
  if (!pulls.length) return [];
  const issueIds = pulls.map((p) => p.issueId);
  const repoIds = [...new Set(pulls.flatMap((p) => (p.headRepoId === null ? [p.baseRepoId] : [p.baseRepoId, p.headRepoId])))];
  const mergerIds = [...new Set(pulls.map((p) => p.mergerId).filter((id): id is number => id !== null))];
  const missing = repoIds.filter((id) => !known.some((r) => r.id === id));
  // Review requests are rare: the policy query runs only when some pull request has one.
  const requestSql = 'SELECT "id" FROM "Review" WHERE "issueId" IN (?) AND "type" = ?';
  const [repoRows, mergers, requests, codeComments] = await Promise.all([
    (missing.length ? readRows(cx.db, 'Repository', 'SELECT * FROM "Repository" WHERE "id" IN (?)', [missing]) : Promise.resolve([])).then(
      (rows) => loadApiRepoRows(cx, [...known.filter((r) => repoIds.includes(r.id)), ...rows]),
    ),
    usersByIds(cx.db, mergerIds),
    // Only the requests the viewer may read: a private team is not revealed by the pull requests it reviews.
    readRows(cx.db, 'Review', requestSql, [issueIds, 'REQUEST']).then((any) =>
      any.length
        ? cx.db.review.findMany({
            where: { AND: [{ issueId: { in: issueIds } }, reviewRequestReadWhere(cx)] },
            include: { reviewer: true, reviewerTeam: { include: TEAM_INCLUDE } },
            orderBy: { id: 'asc' },
          })
        : [],
    ),
    readRows<'Comment', { issueId: number; n: number | bigint }>(
      cx.db,
      'Comment',
      'SELECT "issueId", COUNT(*) AS "n" FROM "Comment" WHERE "issueId" IN (?) AND "type" = ? GROUP BY "issueId"',
      [issueIds, 'CODE'],
    ),
  ]);
  const visible = new Map((await withPermissions(cx, repoRows)).map((r) => [r.repo.id, r]));
  const rowById = new Map(repoRows.map((r) => [r.id, r]));
  const mergerById = new Map(mergers.map((u) => [u.id, u]));
  const codeByIssue = new Map(codeComments.map((c) => [c.issueId, Number(c.n)]));
  const refs = await readPullRefs(cx, pulls, rowById);

  const views: PullView[] = [];
  for (const v of base) {
    const pull = v.pull;
    if (!pull) continue;
    const baseRow = rowById.get(pull.baseRepoId);
    if (!baseRow) throw new NotFoundError('repository does not exist', { repoId: pull.baseRepoId });
    const baseRepo = visible.get(pull.baseRepoId) ?? { repo: baseRow, perm: await cx.loaders.repoPermission.load(pull.baseRepoId) };
    const baseRefs = refs.get(pull.baseRepoId);
    const headBranchSha = pull.headRepoId === null ? undefined : refs.get(pull.headRepoId)?.get(`refs/heads/${pull.headBranch}`);
    const pullRefSha = baseRefs?.get(pullHeadRef(pull.index)) ?? '';
    const mine = requests.filter((r) => r.issueId === pull.issueId);
    // The issue view is this function's own: extended in place (a spread copy is slow to extend on Node 20).
    views.push(
      Object.assign(v, {
        pull,
        baseRepo,
        headRepo: pull.headRepoId === null ? null : (visible.get(pull.headRepoId) ?? null),
        merger: pull.mergerId === null ? null : (mergerById.get(pull.mergerId) ?? null),
        requestedReviewers: mine.flatMap((r) => (r.reviewer ? [r.reviewer] : [])),
        requestedTeams: mine.flatMap((r) => (r.reviewerTeam ? [r.reviewerTeam] : [])),
        reviewComments: codeByIssue.get(pull.issueId) ?? 0,
        headSha: headBranchSha ?? pullRefSha,
        headBranchExists: headBranchSha !== undefined,
        pullRefSha,
        baseSha: baseRefs?.get(`refs/heads/${pull.baseBranch}`) ?? '',
      }),
    );
  }
  return refreshStaleStats(cx, views);
}

/** One pull request with its relations (`pull`: its row, when this request read it already). @throws NotFoundError */
export async function loadPullView(
  cx: ServiceContext,
  issue: Models.Issue,
  known: readonly Models.Repository[] = [],
  pull?: Models.PullRequest,
): Promise<PullView> {
  const [view] = await loadPullViews(cx, [issue], known, pull ? [pull] : []);
  if (!view) throw new NotFoundError('pull request does not exist', { issueId: issue.id });
  return view;
}

/**
 * GET /repos/{o}/{r}/pulls/{index} (Gitea GetPullRequest).
 * @throws NotFoundError, PermissionDeniedError
 */
export async function getPullRequest(cx: ServiceContext, ref: RepoRef, index: number): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'read');
  const { issue, pull } = await findPullByIndex(cx, access, index);
  return loadPullView(cx, issue, [access.repo], pull);
}

/**
 * GET /repos/{o}/{r}/pulls/{base}/{head} (Gitea GetPullRequestByBaseHead): the newest pull request from `head`
 * (`branch`, `owner:branch` or `owner/repo:branch`; the owner's repository of the same name by default) into
 * the branch `base`, whatever its state.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function getPullRequestByBaseHead(cx: ServiceContext, ref: RepoRef, baseBranch: string, head: string): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'read');
  let headRepoId = access.repo.id;
  let headBranch = head;
  const colon = head.indexOf(':');
  if (colon >= 0) {
    headBranch = head.slice(colon + 1);
    const owner = head.slice(0, colon);
    const slash = owner.indexOf('/');
    const [ownerName, repoName] = slash >= 0 ? [owner.slice(0, slash), owner.slice(slash + 1)] : [owner, access.repo.name];
    const ownerRow = await cx.db.user.findUnique({ where: { lowerName: ownerName.toLowerCase() }, select: { id: true } });
    const repo = ownerRow
      ? await cx.db.repository.findUnique({
          where: { ownerId_lowerName: { ownerId: ownerRow.id, lowerName: repoName.toLowerCase() } },
          select: { id: true },
        })
      : null;
    if (!repo) throw new NotFoundError('repository does not exist', { owner: ownerName, name: repoName });
    headRepoId = repo.id;
  }
  const pull = await cx.db.pullRequest.findFirst({
    where: { baseRepoId: access.repo.id, headRepoId, baseBranch, headBranch, flow: 'GITHUB' },
    orderBy: { id: 'desc' },
    include: { issue: true },
  });
  if (!pull)
    throw new NotFoundError(
      `pull request does not exist [id: 0, issue_id: 0, head_repo_id: ${headRepoId}, base_repo_id: ${access.repo.id}, head_branch: ${headBranch}, base_branch: ${baseBranch}]`,
      {},
    );
  const { issue, ...row } = pull;
  return loadPullView(cx, issue, [access.repo], row);
}

/**
 * GET /repos/{o}/{r}/commits/{sha}/pull (Gitea GetPullRequestByMergedCommit): the pull request of the repository
 * whose merge commit is `sha` (the full id, as stored).
 * @throws NotFoundError, PermissionDeniedError
 */
export async function getPullRequestByMergedCommit(cx: ServiceContext, ref: RepoRef, sha: string): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'read');
  const pull = sha
    ? await cx.db.pullRequest.findFirst({
        where: { baseRepoId: access.repo.id, mergedCommitId: sha },
        orderBy: { id: 'asc' },
        include: { issue: true },
      })
    : null;
  if (!pull)
    throw new NotFoundError(
      `pull request does not exist [id: 0, issue_id: 0, head_repo_id: 0, base_repo_id: ${access.repo.id}, head_branch: , base_branch: ]`,
      { sha },
    );
  const { issue, ...row } = pull;
  return loadPullView(cx, issue, [access.repo], row);
}
