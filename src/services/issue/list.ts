import { containsInsensitive } from '../../db/filters.ts';
import type { Models } from '../../db/client.ts';
import { readRows, type Param } from '../../db/readPath.ts';
import { sql } from '../../db/sqlText.ts';
import { NotFoundError } from '../../errors.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { requireTokenScope } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { loadIssueViews, type IssueView } from './issue.ts';
import { issueReadWhere } from './visibility.ts';

type Where = Models.Prisma.IssueWhereInput;

/** Filters shared by the repository list and the cross-repository search. */
export interface IssueFilters {
  state: 'open' | 'closed' | 'all';
  /** Label names; issues must carry every one that exists (unknown names are ignored, as Gitea). */
  labels?: string[];
  /** Milestone names or ids (unknown ones ignored). */
  milestones?: string[];
  q?: string;
  type?: 'issues' | 'pulls';
  since?: Date;
  before?: Date;
}

/** GET /repos/{o}/{r}/issues. */
export interface ListIssuesInput extends IssueFilters {
  createdBy?: string;
  assignedBy?: string;
  mentionedBy?: string;
  page: ListOptions;
}

/** GET /repos/issues/search: `assigned`/`created`/`mentioned` are relative to the viewer. */
export interface SearchIssuesInput extends IssueFilters {
  assigned?: boolean;
  created?: boolean;
  mentioned?: boolean;
  /** Only repositories of this owner (user or organization name). */
  owner?: string;
  page: ListOptions;
}

const ORDER: Models.Prisma.IssueOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

function commonWhere(cx: ServiceContext, f: IssueFilters): Where[] {
  const and: Where[] = [];
  if (f.state !== 'all') and.push({ isClosed: f.state === 'closed' });
  if (f.type) and.push({ isPull: f.type === 'pulls' });
  if (f.since) and.push({ updatedAt: { gte: f.since } });
  if (f.before) and.push({ updatedAt: { lte: f.before } });
  if (f.q) {
    const provider = cx.config.dbProvider;
    and.push({ OR: [{ title: containsInsensitive(provider, f.q) }, { content: containsInsensitive(provider, f.q) }] });
  }
  return and;
}

async function userIdFor(cx: ServiceContext, name: string | undefined): Promise<number | undefined> {
  if (!name) return undefined;
  const user = await findUserByName(cx.db, name);
  if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`, { name });
  return user.id;
}

async function labelWhere(cx: ServiceContext, repo: Models.Repository, names: string[] | undefined): Promise<Where[]> {
  if (!names?.length) return [];
  const labels = await cx.db.label.findMany({
    where: { name: { in: names }, OR: [{ repoId: repo.id }, { orgId: repo.ownerId }] },
    select: { id: true },
  });
  return labels.map((l) => ({ labels: { some: { labelId: l.id } } }));
}

async function milestoneWhere(cx: ServiceContext, repoId: number, refs: string[] | undefined): Promise<Where[]> {
  if (!refs?.length) return [];
  const ids = refs
    .filter((r) => /^\d+$/.test(r))
    .map(Number)
    .filter(Number.isSafeInteger);
  const rows = await cx.db.milestone.findMany({
    where: { repoId, OR: [{ name: { in: refs } }, { id: { in: ids } }] },
    select: { id: true },
  });
  return rows.length ? [{ milestoneId: { in: rows.map((r) => r.id) } }] : [];
}

/**
 * A repository's issues and pull requests, newest first, with Gitea's filters. Without `type`, only the
 * units the viewer can read are listed; asking for an unreadable one is a 404.
 * @throws NotFoundError (repository, unit, or a named user)
 */
export async function listIssues(cx: ServiceContext, ref: RepoRef, input: ListIssuesInput): Promise<Page<IssueView>> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const { repo, perm } = access;
  const readIssues = canRead(perm, 'ISSUES');
  const readPulls = canRead(perm, 'PULL_REQUESTS');
  if ((input.type === 'issues' && !readIssues) || (input.type === 'pulls' && !readPulls))
    throw new NotFoundError('not found', { repoId: repo.id });
  const [createdBy, assignedBy, mentionedBy] = await Promise.all([
    userIdFor(cx, input.createdBy),
    userIdFor(cx, input.assignedBy),
    userIdFor(cx, input.mentionedBy),
  ]);
  const and: Where[] = [{ repoId: repo.id }, ...commonWhere(cx, input)];
  if (!input.type && readIssues !== readPulls) and.push({ isPull: readPulls });
  and.push(...(await labelWhere(cx, repo, input.labels)), ...(await milestoneWhere(cx, repo.id, input.milestones)));
  if (createdBy !== undefined) and.push({ posterId: createdBy });
  if (assignedBy !== undefined) and.push({ assignees: { some: { assigneeId: assignedBy } } });
  if (mentionedBy !== undefined) and.push({ issueUsers: { some: { userId: mentionedBy, isMentioned: true } } });
  const counted = countedTotal(repo, and);
  if (counted === undefined) return page(cx, { AND: and }, input.page, [repo]);
  return { items: await loadIssueViews(cx.db, await countedPage(cx, and, input.page), [repo]), total: counted };
}

const COUNTED = new Set(['repoId', 'isClosed', 'isPull']);

/**
 * The total of a list filtered by state and type only, from the repository's counters (numIssues,
 * numClosedIssues, numPulls, numClosedPulls, kept exact by the transactions that create, close, reopen and
 * merge): a COUNT over a million rows costs more than the page. Undefined for any other filter.
 */
function countedTotal(repo: Models.Repository, and: readonly Where[]): number | undefined {
  if (!and.every((w) => Object.keys(w).every((k) => COUNTED.has(k)))) return undefined;
  const closed = and.find((w) => w.isClosed !== undefined)?.isClosed as boolean | undefined;
  const isPull = and.find((w) => w.isPull !== undefined)?.isPull as boolean | undefined;
  const pick = (all: number, done: number) => (closed === undefined ? all : closed ? done : all - done);
  return (
    (isPull === true ? 0 : pick(repo.numIssues, repo.numClosedIssues)) + (isPull === false ? 0 : pick(repo.numPulls, repo.numClosedPulls))
  );
}

/**
 * The page of a list filtered by state and type only (the common list, whose total countedTotal gives), on the read
 * path: the indexes Issue(repoId, isClosed, createdAt, id) and Issue(repoId, isPull, createdAt, id) serve it, and
 * Prisma's findMany of whole rows cost a tenth of the request in result mapping. Same rows, same order as `page`.
 */
async function countedPage(cx: ServiceContext, and: readonly Where[], opts: ListOptions): Promise<Models.Issue[]> {
  // The keys are COUNTED's (column names), their values the repository's id and booleans.
  const filters = and.flatMap((w) => Object.entries(w) as [string, Param][]);
  const { skip, take } = skipTake(opts);
  return readRows(
    cx.db,
    'Issue',
    sql`SELECT * FROM "Issue" WHERE ${filters.map(([k]) => `"${k}" = ?`).join(' AND ')} ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?`,
    [...filters.map(([, v]) => v), take, skip],
  );
}

async function page(
  cx: ServiceContext,
  where: Where,
  opts: ListOptions,
  known: readonly Pick<Models.Repository, 'id' | 'name' | 'ownerName'>[] = [],
): Promise<Page<IssueView>> {
  const [rows, total] = await Promise.all([
    cx.db.issue.findMany({ where, orderBy: ORDER, ...skipTake(opts) }),
    cx.db.issue.count({ where }),
  ]);
  return { items: await loadIssueViews(cx.db, rows, known), total };
}

/**
 * Issues and pull requests across every repository the viewer can see (GET /repos/issues/search), newest
 * first, as the read policy of issues allows them (issueReadWhere: the viewer's mode on the issues or pull
 * requests unit). Label and milestone names match across repositories.
 * @throws NotFoundError (unknown `owner`)
 */
export async function searchIssues(cx: ServiceContext, input: SearchIssuesInput): Promise<Page<IssueView>> {
  requireTokenScope(cx, 'issue', 'read');
  const and: Where[] = [issueReadWhere(cx), ...commonWhere(cx, input)];
  if (input.owner) {
    const owner = await findUserByName(cx.db, input.owner);
    if (!owner) throw new NotFoundError(`user does not exist [uid: 0, name: ${input.owner}]`, { name: input.owner });
    and.push({ repo: { ownerId: owner.id } });
  }
  if (input.labels?.length) for (const name of input.labels) and.push({ labels: { some: { label: { name } } } });
  if (input.milestones?.length) and.push({ milestone: { name: { in: input.milestones } } });
  const viewer = cx.viewer;
  if (viewer) {
    if (input.assigned) and.push({ assignees: { some: { assigneeId: viewer.id } } });
    if (input.created) and.push({ posterId: viewer.id });
    if (input.mentioned) and.push({ issueUsers: { some: { userId: viewer.id, isMentioned: true } } });
  }
  return page(cx, { AND: and }, input.page);
}
