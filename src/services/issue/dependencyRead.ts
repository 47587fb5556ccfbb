import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { repoPermission, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import type { ListOptions, Page } from '../paging.ts';
import { isDependenciesEnabled } from './dependency.ts';
import { findIssueByIndex, loadIssueViews, type IssueView, unitOf } from './issue.ts';
import { issueReadWhere } from './visibility.ts';

/**
 * Issues matching `where` that the viewer can read (their repository visible, and its issues or pulls unit
 * readable), in Gitea's order: the URL's repository first, then by repository, newest first; one page of them.
 */
async function readableIssues(
  cx: ServiceContext,
  where: Models.Prisma.IssueWhereInput,
  repoId: number,
  page: ListOptions,
): Promise<Page<IssueView>> {
  const rows = await cx.db.issue.findMany({
    where: { AND: [where, issueReadWhere(cx)] },
    select: { id: true, repoId: true, isPull: true, createdAt: true },
  });
  const repoIds = [...new Set(rows.map((r) => r.repoId))];
  const perms = new Map(await Promise.all(repoIds.map(async (id) => [id, await repoPermission(cx, id)] as const)));
  const rank = (r: { repoId: number }) => (r.repoId === repoId ? 0 : r.repoId);
  const readable = rows
    .filter((r) => {
      const perm = perms.get(r.repoId);
      return perm !== undefined && canRead(perm, unitOf(r));
    })
    .sort((a, b) => rank(a) - rank(b) || b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  const ids = readable.slice((page.page - 1) * page.pageSize, page.page * page.pageSize).map((r) => r.id);
  const issues = ids.length ? await cx.db.issue.findMany({ where: { id: { in: ids } } }) : [];
  const byId = new Map(issues.map((i) => [i.id, i]));
  const ordered = ids.map((id) => byId.get(id)).filter((i): i is Models.Issue => i !== undefined);
  return { items: await loadIssueViews(cx.db, ordered), total: readable.length };
}

/**
 * GET …/issues/{index}/dependencies: the issues that block this one (only those the viewer can read). 404 when
 * the repository has dependencies disabled, as Gitea.
 * @throws NotFoundError
 */
export async function listIssueDependencies(cx: ServiceContext, ref: RepoRef, index: number, page: ListOptions): Promise<Page<IssueView>> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  if (!(await isDependenciesEnabled(cx.db, access.repo.id))) throw new NotFoundError('not found', { repoId: access.repo.id });
  const issue = await findIssueByIndex(cx, access, index);
  return readableIssues(cx, { dependents: { some: { issueId: issue.id } } }, access.repo.id, page);
}

/**
 * GET …/issues/{index}/blocks: the issues this one blocks (only those the viewer can read). Whether this
 * repository has dependencies enabled does not matter (the blocked issues may live elsewhere), as Gitea.
 * @throws NotFoundError
 */
export async function listIssueBlocks(cx: ServiceContext, ref: RepoRef, index: number, page: ListOptions): Promise<Page<IssueView>> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  return readableIssues(cx, { dependencies: { some: { dependencyId: issue.id } } }, access.repo.id, page);
}

/** Open and total counts of an issue's blockers and of the issues it blocks (GitHub's IssueDependenciesSummary). */
export interface DependencySummary {
  blockedBy: number;
  blocking: number;
  totalBlockedBy: number;
  totalBlocking: number;
}

/**
 * Dependency counts for many issues at once (two queries whatever their number), counting only issues at the
 * other end that the viewer may see (issueReadWhere, as GraphQL's connections).
 */
export async function summarizeIssueDependencies(cx: ServiceContext, issueIds: readonly number[]): Promise<Map<number, DependencySummary>> {
  const ids = [...issueIds];
  const visible = issueReadWhere(cx);
  const [blockers, blocked] = await Promise.all([
    cx.db.issueDependency.findMany({
      where: { issueId: { in: ids }, dependency: visible },
      select: { issueId: true, dependency: { select: { isClosed: true } } },
    }),
    cx.db.issueDependency.findMany({
      where: { dependencyId: { in: ids }, issue: visible },
      select: { dependencyId: true, issue: { select: { isClosed: true } } },
    }),
  ]);
  const out = new Map(ids.map((id) => [id, { blockedBy: 0, blocking: 0, totalBlockedBy: 0, totalBlocking: 0 }]));
  for (const row of blockers) {
    const s = out.get(row.issueId);
    if (!s) continue;
    s.totalBlockedBy++;
    if (!row.dependency.isClosed) s.blockedBy++;
  }
  for (const row of blocked) {
    const s = out.get(row.dependencyId);
    if (!s) continue;
    s.totalBlocking++;
    if (!row.issue.isClosed) s.blocking++;
  }
  return out;
}
