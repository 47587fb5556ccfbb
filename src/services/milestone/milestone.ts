import type { DbTx, Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueMetaRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { refreshMilestone, requireText } from '../issue/create.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';

type Milestone = Models.Milestone;

/** GET /repos/{o}/{r}/milestones: `state` open (default), closed or all; `name` a case-insensitive substring. */
export interface ListMilestonesInput {
  state: 'open' | 'closed' | 'all';
  name?: string;
  page: ListOptions | ListWindow;
}

/** Gitea CreateMilestoneOption: `dueOn` is stored as the exact instant; `state` "closed" creates it closed. */
export interface CreateMilestoneInput {
  title?: string;
  description?: string;
  dueOn?: Date | null;
  state?: string;
}

/** Gitea EditMilestoneOption; absent fields do not change. */
export interface UpdateMilestoneInput {
  /** Empty leaves the title alone (as Gitea). */
  title?: string;
  description?: string;
  /** RFC 3339; only its calendar date counts: stored as 23:59:59 UTC of that date. `null` removes the due date. */
  dueOn?: string | null;
  /** "closed" closes; any other value opens. */
  state?: string;
}

const GO_DIGITS: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

/**
 * Go's strconv.ParseInt(s, 0, 64), as Gitea reads a milestone path id: a sign, then 0x/0o/0b or a leading 0
 * (octal) as base prefix, underscores only between digits or after a prefix. Anything else reads as 0.
 */
export function parseGoInt(raw: string): number {
  let s = raw;
  let negative = false;
  if (s.startsWith('+') || s.startsWith('-')) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  const prefix = /^0[xXoObB]|^0(?=.)/.exec(s)?.[0] ?? '';
  const base = prefix === '' ? 10 : prefix.length === 1 ? 8 : { x: 16, o: 8, b: 2 }[prefix[1]!.toLowerCase() as 'x' | 'o' | 'b'];
  s = s.slice(prefix.length);
  if (s.includes('_')) {
    if (s.includes('__') || s.endsWith('_') || (s.startsWith('_') && prefix === '')) return 0;
    s = s.replace(/_/g, '');
  }
  if (!GO_DIGITS[base]!.test(s)) return 0;
  const value = parseInt(s, base);
  if (!Number.isSafeInteger(value)) return 0;
  return negative ? -value : value;
}

/**
 * A milestone of the repository by id, or by exact name when no milestone has that id (Gitea
 * getMilestoneByIDOrName). @throws NotFoundError `not found`
 */
async function findInRepo(cx: ServiceContext, repoId: number, idOrName: string): Promise<Milestone> {
  const id = parseGoInt(idOrName);
  if (id > 0 && id <= 2_147_483_647) {
    const byId = await cx.db.milestone.findFirst({ where: { id, repoId } });
    if (byId) return byId;
  }
  const byName = await cx.db.milestone.findFirst({ where: { repoId, name: idOrName }, orderBy: { id: 'asc' } });
  if (!byName) throw new NotFoundError('not found', { repoId, milestone: idOrName });
  return byName;
}

/** Keeps the repository's milestone counters exact (Gitea updateRepoMilestoneNum). */
async function refreshRepoMilestoneCounts(tx: DbTx, repoId: number): Promise<void> {
  const [numMilestones, numClosedMilestones] = await Promise.all([
    tx.milestone.count({ where: { repoId } }),
    tx.milestone.count({ where: { repoId, isClosed: true } }),
  ]);
  await tx.repository.update({ where: { id: repoId }, data: { numMilestones, numClosedMilestones } });
}

/** Gitea ParseAPIDeadlineToEndOfDay: the calendar date as written, at 23:59:59 in the server's zone (UTC); zero times clear. */
export function milestoneEndOfDay(value: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ]/.exec(value);
  const instant = new Date(value);
  if (!m || Number.isNaN(instant.getTime())) throw new ValidationError('Invalid', { field: 'due_on', rule: 'Invalid' });
  if (instant.getTime() === 0 || m[1] === '0001-01-01') return null;
  return new Date(`${m[1]}T23:59:59Z`);
}

/** The state and title filter of GET …/milestones and of GraphQL lists (the title matched case-insensitively). */
export function milestoneFilter(cx: ServiceContext, input: Pick<ListMilestonesInput, 'state' | 'name'>): Models.Prisma.MilestoneWhereInput {
  return {
    ...(input.state === 'all' ? {} : { isClosed: input.state === 'closed' }),
    ...(input.name ? { name: containsInsensitive(cx.config.dbProvider, input.name) } : {}),
  };
}

/** Gitea's default milestone order: due date ascending (none first), then name. */
export const MILESTONE_LIST_ORDER: Models.Prisma.MilestoneOrderByWithRelationInput[] = [
  { deadlineAt: { sort: 'asc', nulls: 'first' } },
  { name: 'asc' },
  { id: 'asc' },
];

/**
 * A repository's milestones (Gitea ListMilestones), due date first, paged, with the total.
 * @throws NotFoundError
 */
export async function listMilestones(cx: ServiceContext, ref: RepoRef, input: ListMilestonesInput): Promise<Page<Milestone>> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'read');
  const where = { repoId: repo.id, ...milestoneFilter(cx, input) };
  const [items, total] = await Promise.all([
    cx.db.milestone.findMany({ where, orderBy: MILESTONE_LIST_ORDER, ...skipTake(input.page) }),
    cx.db.milestone.count({ where }),
  ]);
  return { items, total };
}

/** One milestone by id, or by name when no milestone has that id. @throws NotFoundError */
export async function getMilestone(cx: ServiceContext, ref: RepoRef, idOrName: string): Promise<Milestone> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'read');
  return findInRepo(cx, repo.id, idOrName);
}

/**
 * Creates a milestone (Gitea CreateMilestone): the title is trimmed (Gitea does not require one), `dueOn`
 * is kept as given, `state: "closed"` creates it closed. The repository's milestone counters stay exact.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function createMilestone(cx: ServiceContext, ref: RepoRef, input: CreateMilestoneInput): Promise<Milestone> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'write');
  requireText(input.title, 'title');
  requireText(input.description, 'description');
  const closed = input.state === 'closed';
  const due = input.dueOn && input.dueOn.getTime() > 0 ? new Date(Math.floor(input.dueOn.getTime() / 1000) * 1000) : null;
  return withTx(cx, async (tx, emit) => {
    const row = await tx.milestone.create({
      data: {
        repoId: repo.id,
        name: (input.title ?? '').trim(),
        content: input.description ?? '',
        deadlineAt: due,
        isClosed: closed,
        closedAt: closed ? new Date() : null,
      },
    });
    await refreshRepoMilestoneCounts(tx, repo.id);
    emit({ type: 'milestone.created', milestoneId: row.id, repoId: repo.id, actorId: requireViewer(cx).id });
    return row;
  });
}

/**
 * Edits a milestone (Gitea EditMilestone). Closing sets `closed_at`, reopening clears it; the milestone's
 * issue counters and the repository's milestone counters are recomputed.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function updateMilestone(cx: ServiceContext, ref: RepoRef, idOrName: string, input: UpdateMilestoneInput): Promise<Milestone> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'write');
  const found = await findInRepo(cx, repo.id, idOrName);
  requireText(input.title, 'title');
  requireText(input.description, 'description');
  const title = input.title?.trim() ? input.title.trim() : undefined;
  const deadline = input.dueOn === undefined ? undefined : input.dueOn === null ? null : milestoneEndOfDay(input.dueOn);
  return withTx(cx, async (tx, emit) => {
    const current = await tx.milestone.findUniqueOrThrow({ where: { id: found.id } });
    const data: Models.Prisma.MilestoneUncheckedUpdateInput = {};
    const fields: string[] = [];
    if (title !== undefined && title !== current.name) {
      data.name = title;
      fields.push('title');
    }
    if (input.description !== undefined && input.description !== current.content) {
      data.content = input.description;
      fields.push('description');
    }
    if (deadline !== undefined && (deadline?.getTime() ?? null) !== (current.deadlineAt?.getTime() ?? null)) {
      data.deadlineAt = deadline;
      fields.push('due_on');
    }
    const close = input.state === undefined ? current.isClosed : input.state === 'closed';
    if (close !== current.isClosed) {
      data.isClosed = close;
      data.closedAt = close ? new Date() : null;
      fields.push('state');
    }
    // Gitea's update always touches the row (updated_at) and recounts.
    await tx.milestone.update({ where: { id: current.id }, data });
    await refreshMilestone(tx, current.id);
    if (fields.includes('state')) await refreshRepoMilestoneCounts(tx, repo.id);
    emit({ type: 'milestone.updated', milestoneId: current.id, repoId: repo.id, actorId: requireViewer(cx).id, fields });
    return tx.milestone.findUniqueOrThrow({ where: { id: current.id } });
  });
}

/**
 * Deletes a milestone (Gitea DeleteMilestone): its issues and timeline entries lose it (the foreign keys set
 * null, without touching the issues' update times, as Gitea) and the repository's counters are recounted.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function deleteMilestone(cx: ServiceContext, ref: RepoRef, idOrName: string): Promise<void> {
  const { repo } = await resolveIssueMetaRepo(cx, ref, 'write');
  const found = await findInRepo(cx, repo.id, idOrName);
  await withTx(cx, async (tx, emit) => {
    await tx.milestone.deleteMany({ where: { id: found.id } });
    await refreshRepoMilestoneCounts(tx, repo.id);
    emit({ type: 'milestone.deleted', milestoneId: found.id, repoId: repo.id, actorId: requireViewer(cx).id });
  });
}

async function repoOfMilestone(cx: ServiceContext, id: number): Promise<RepoRef> {
  const row =
    id > 0 && id <= 2_147_483_647
      ? await cx.db.milestone.findUnique({ where: { id }, select: { repo: { select: { ownerName: true, name: true } } } })
      : null;
  // An unknown id falls through to the gates with no repository: NotFound, the REST way.
  return row ? { owner: row.repo.ownerName, repo: row.repo.name } : { owner: '', repo: '' };
}

/** updateMilestone for a milestone known by its database id (GraphQL). @throws as updateMilestone */
export async function updateMilestoneById(cx: ServiceContext, id: number, input: UpdateMilestoneInput): Promise<Milestone> {
  return updateMilestone(cx, await repoOfMilestone(cx, id), String(id), input);
}

/** deleteMilestone for a milestone known by its database id (GraphQL). @throws as deleteMilestone */
export async function deleteMilestoneById(cx: ServiceContext, id: number): Promise<void> {
  return deleteMilestone(cx, await repoOfMilestone(cx, id), String(id));
}
