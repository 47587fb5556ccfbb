import type { DbTx, Models } from '../../db/client.ts';
import { shiftLabelCounters } from '../../db/labelCounters.ts';
import { PermissionDeniedError, ValidationError } from '../../errors.ts';
import { repoPermissionLoader, type RepoFacts } from '../../loaders/permissionLoaders.ts';
import { usersRepoPermissions } from '../../loaders/usersRepoPermission.ts';
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import { ALL_UNITS } from '../../permissions/units.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { exclusiveScope } from '../label/color.ts';
import { usableLabels, type UsableLabel } from '../label/usableLabels.ts';
import { labelViewOf, loadIssueView, viewUserOf, type IssueView } from './issue.ts';
import { projectUsage, setIssueProjects } from './issueProject.ts';
import { findIssueTemplate } from './issueTemplates.ts';
import { insertRowReturning, insertRows, type InsertRow } from '../../db/insertRows.ts';
import { nextIssueIndex } from '../../db/issueIndex.ts';
import { countNewIssue } from '../../db/counters.ts';
import { readRows } from '../../db/readPath.ts';
import { withEventIssue, withEventRepo } from '../../notify/eventReads.ts';

/** POST /repos/{o}/{r}/issues (Gitea CreateIssueOption). */
export interface CreateIssueInput {
  title?: string;
  body?: string;
  ref?: string;
  assignee?: string;
  assignees?: string[];
  /** Assignees by user id (the graph's assigneeIds), checked as the names are. */
  assigneeIds?: number[];
  dueDate?: Date | null;
  milestone?: number;
  labels?: number[];
  /** Project ids; honoured for every caller (as Gitea), each must be one the repository may use (400 otherwise). */
  projects?: number[];
  closed?: boolean;
  /**
   * An issue template of the default branch, by name or file name (GitHub's createIssue `issueTemplate`): its
   * labels (by name) and assignees join those given, for writers only as the rest.
   */
  template?: string;
}

/**
 * The `issue.created` event of a new issue's or pull request's row, with the row as written and the repository's
 * facts as the write's gate read them: the feed and the mentions read nothing back (notify/eventReads.ts).
 */
export function issueCreatedEvent(row: Models.Issue, actorId: number, facts: RepoFacts | undefined) {
  return withEventRepo(
    withEventIssue({ type: 'issue.created', issueId: row.id, repoId: row.repoId, index: row.index, isPull: row.isPull, actorId }, row),
    facts,
  );
}

/**
 * A new issue's or pull request's row: the repository's next number (gap-free: the counter's row stays locked until
 * the transaction ends), the row, and the repository's counters of issues or pull requests, open and closed.
 */
export async function insertIssueRow(tx: DbTx, row: Omit<InsertRow<'Issue'>, 'index'>): Promise<Models.Issue> {
  const index = await nextIssueIndex(tx, row.repoId);
  // Object.assign, not `{ ...row, index }`: on Node 20 a literal that starts with a spread is slow (db/rowShape.ts).
  const issue = await insertRowReturning(tx, 'Issue', Object.assign({}, row, { index }));
  await countNewIssue(tx, row.repoId, { isPull: issue.isPull, closed: issue.isClosed });
  return issue;
}

/** Recomputes a milestone's counters and completeness from its issues (Gitea UpdateMilestoneCounters). */
export async function refreshMilestone(tx: DbTx, milestoneId: number | null): Promise<void> {
  if (milestoneId === null) return;
  const [numIssues, numClosedIssues] = await Promise.all([
    tx.issue.count({ where: { milestoneId } }),
    tx.issue.count({ where: { milestoneId, isClosed: true } }),
  ]);
  const completeness = numIssues ? Math.floor((numClosedIssues * 100) / numIssues) : 0;
  await tx.milestone.updateMany({ where: { id: milestoneId }, data: { numIssues, numClosedIssues, completeness } });
}

/** Gitea's title normalization: trimmed and cut to 255 characters with an ellipsis. */
export function normalizeTitle(title: string): string {
  const t = title.trim();
  const chars = [...t];
  return chars.length > 255 ? `${chars.slice(0, 254).join('')}…` : t;
}

/** PostgreSQL text cannot hold NUL: bad input, answered 422. @throws ValidationError */
export function requireText(value: string | undefined, field: string): void {
  if (value?.includes('\u0000')) throw new ValidationError('Invalid', { field, rule: 'Invalid' });
}

/** Gitea CanBeAssigned: a user (never an organization) with write on some unit, or read on pull requests, of the repository. */
export async function canBeAssigned(cx: ServiceContext, repoId: number, user: Models.User): Promise<boolean> {
  if (user.type === 'ORGANIZATION') return false;
  return isAssignable(await repoPermissionLoader(cx.db, user).load(repoId));
}

/** Gitea CanBeAssigned on a user's permission: write on some unit, or read on pull requests, or admin. */
function isAssignable(perm: RepoPermission): boolean {
  return isRepoAdmin(perm) || ALL_UNITS.some((u) => canWrite(perm, u)) || canRead(perm, 'PULL_REQUESTS');
}

/**
 * Resolves assignees for a writer, given by name and (for the graph) by user id: unknown → 422 (Gitea's nested
 * message); a user who cannot be assigned (Gitea CanBeAssigned: write on some unit, or read on pull requests) →
 * 422; an assignee who blocked the viewer → 403. Checked in the order given, the first failure answered; a fixed
 * number of statements whatever the number of assignees (users, their permissions, blocks).
 * @throws ValidationError, PermissionDeniedError
 */
export async function resolveAssignees(
  cx: ServiceContext,
  access: RepoAccess,
  names: readonly string[],
  ids: readonly number[] = [],
): Promise<Models.User[]> {
  const wantedNames = [...new Set(names.filter((n) => n !== ''))];
  const wantedIds = [...new Set(ids)];
  if (!wantedNames.length && !wantedIds.length) return [];
  const validIds = wantedIds.filter((id) => id > 0 && id <= 2_147_483_647);
  const found = await readRows(cx.db, 'User', 'SELECT * FROM "User" WHERE "lowerName" IN (?) OR "id" IN (?)', [
    wantedNames.map((n) => n.toLowerCase()),
    validIds,
  ]);
  const byName = new Map(found.map((u) => [u.lowerName, u]));
  const byId = new Map(found.map((u) => [u.id, u]));
  const viewer = requireViewer(cx);
  const candidateIds = found.filter((u) => u.type !== 'ORGANIZATION').map((u) => u.id);
  const [perms, blocks] = await Promise.all([
    usersRepoPermissions(cx.db, access.facts ?? access.repo.id, candidateIds, found),
    readRows<'Block', Pick<Models.Block, 'blockerId'>>(
      cx.db,
      'Block',
      'SELECT "blockerId" FROM "Block" WHERE "blockerId" IN (?) AND "blockeeId" = ?',
      [candidateIds, viewer.id],
    ),
  ]);
  const blockedBy = new Set(blocks.map((b) => b.blockerId));
  const users: Models.User[] = [];
  const admit = (user: Models.User) => {
    if (users.some((u) => u.id === user.id)) return;
    const perm = perms.get(user.id);
    if (user.type === 'ORGANIZATION' || !perm || !isAssignable(perm))
      throw new ValidationError(`user doesn't have access to repo [user_id: ${user.id}, repo_name: ${access.repo.name}]`, {
        userId: user.id,
      });
    if (blockedBy.has(user.id)) throw new PermissionDeniedError('user is blocked', { userId: user.id });
    users.push(user);
  };
  for (const name of wantedNames) {
    const user = byName.get(name.toLowerCase());
    if (!user) throw new ValidationError(`Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`, { name });
    admit(user);
  }
  for (const id of wantedIds) {
    const user = byId.get(id);
    if (!user) throw new ValidationError(`Assignee does not exist: [user does not exist [uid: ${id}, name: ]]`, { id });
    admit(user);
  }
  return users;
}

/**
 * Gitea RemoveDuplicateExclusiveLabels: of several exclusive labels of one scope (`scope/name`), only the
 * last one given is kept; other labels keep their order.
 */
export function keepLastOfEachScope<T extends { name: string; exclusive: boolean }>(labels: readonly T[]): T[] {
  return labels.filter((label, i) => {
    const scope = exclusiveScope(label);
    return scope === null || !labels.slice(i + 1).some((other) => exclusiveScope(other) === scope);
  });
}

/** The distinct safe integers of `ids`, in the order given. */
const distinctIds = (ids: readonly number[]): number[] => [...new Set(ids.filter(Number.isSafeInteger))];

/** Of the labels found for `wanted`, those kept, in the order given: only the last one of each exclusive scope. */
const keptInOrder = <T extends UsableLabel>(wanted: readonly number[], rows: readonly T[]): T[] =>
  keepLastOfEachScope(wanted.flatMap((id) => rows.filter((r) => r.id === id)));

/**
 * Label ids usable on the repository: its own and, for an organization's repository, the organization's;
 * others dropped. Of exclusive labels sharing a scope only the last one given is kept.
 */
export async function usableLabelIds(cx: ServiceContext, repo: Models.Repository, ids: readonly number[]): Promise<number[]> {
  const wanted = distinctIds(ids);
  return keptInOrder(wanted, await usableLabels(cx.db, repo, 'id', wanted)).map((r) => r.id);
}

/** usableLabelIds with the labels' whole rows (a new issue's view shows them without reading them again). */
async function usableLabelRows(cx: ServiceContext, repo: Models.Repository, ids: readonly number[]): Promise<Models.Label[]> {
  const wanted = distinctIds(ids);
  return keptInOrder(wanted, await usableLabels(cx.db, repo, 'id', wanted, true));
}

/**
 * Writes a new issue's (or pull request's) labels and assignees inside `tx` and returns the timeline comments
 * that record them and its milestone, for the caller to add to its own (Gitea NewIssueWithIndex).
 */
export async function writeInitialRelations(
  tx: DbTx,
  issueId: number,
  actorId: number,
  rel: { labelIds: readonly number[]; milestoneId: number | null; assignees: readonly Pick<Models.User, 'id'>[] },
): Promise<Models.Prisma.CommentCreateManyInput[]> {
  const comments: Models.Prisma.CommentCreateManyInput[] = [];
  if (rel.labelIds.length) {
    await insertRows(
      tx,
      'IssueLabel',
      rel.labelIds.map((labelId) => ({ issueId, labelId })),
    );
    comments.push(...rel.labelIds.map((labelId) => ({ type: 'LABEL' as const, posterId: actorId, issueId, labelId, content: '1' })));
  }
  if (rel.milestoneId !== null)
    comments.push({ type: 'MILESTONE', posterId: actorId, issueId, milestoneId: rel.milestoneId, oldMilestoneId: null });
  if (rel.assignees.length) {
    await insertRows(
      tx,
      'IssueAssignee',
      rel.assignees.map((u) => ({ issueId, assigneeId: u.id })),
    );
    comments.push(...rel.assignees.map((u) => ({ type: 'ASSIGNEES' as const, posterId: actorId, issueId, assigneeId: u.id })));
  }
  return comments;
}

/** An issue template's labels (ids of the repository's or its organization's labels with those names) and assignees. @throws ValidationError naming issueTemplate */
async function templateRelations(
  cx: ServiceContext,
  ref: RepoRef,
  repo: Models.Repository,
  name: string,
): Promise<{ labelIds: number[]; assignees: string[] }> {
  const template = await findIssueTemplate(cx, ref, name);
  if (!template) throw new ValidationError(`issueTemplate: the default branch has no issue template ${name}`, { field: 'issueTemplate' });
  const labels = template.labels?.length
    ? await cx.db.label.findMany({
        where: { name: { in: template.labels }, OR: [{ repoId: repo.id }, { orgId: repo.ownerId }] },
        select: { id: true },
      })
    : [];
  return { labelIds: labels.map((l) => l.id), assignees: template.assignees ?? [] };
}

/**
 * Opens an issue (Gitea CreateIssue). Gates in Gitea's order: 404 invisible repository or unit, 401 anonymous,
 * 423 archived, 422 missing title, 403 when issues are unreadable or the viewer is blocked by the owner.
 * Callers without write on issues get their labels, milestone, assignees and due date silently dropped;
 * unknown or foreign labels and milestones are dropped too. The number comes from the repository's shared
 * counter in the same transaction as the row and the repository counters. `projects` are joined for every
 * caller; an unknown or unusable project refuses the whole creation (400).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, ValidationError, PermissionDeniedError, InvalidArgumentError
 */
export async function createIssue(cx: ServiceContext, ref: RepoRef, input: CreateIssueInput): Promise<IssueView> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const title = normalizeTitle(input.title ?? '');
  if (title === '') throw new ValidationError('Required', { field: 'title', rule: 'Required' });
  requireText(title, 'title');
  requireText(input.body, 'body');
  requireText(input.ref, 'ref');
  const { repo, perm } = access;
  if (!canRead(perm, 'ISSUES') && !isRepoAdmin(perm))
    throw new PermissionDeniedError('user should have specific read permission or be a repo admin');
  if (perm.blocked) throw new PermissionDeniedError('user is blocked');
  const writer = canWrite(perm, 'ISSUES');
  const template = input.template === undefined ? null : await templateRelations(cx, ref, repo, input.template);
  const assigneeNames = [...(input.assignee ? [input.assignee] : []), ...(input.assignees ?? []), ...(template?.assignees ?? [])];
  const assignees = writer ? await resolveAssignees(cx, access, [...new Set(assigneeNames)], input.assigneeIds) : [];
  const labels = writer ? await usableLabelRows(cx, repo, [...(input.labels ?? []), ...(template?.labelIds ?? [])]) : [];
  const labelIds = labels.map((l) => l.id);
  const milestone =
    writer && input.milestone
      ? await cx.db.milestone.findFirst({ where: { id: input.milestone, repoId: repo.id }, select: { id: true } })
      : null;
  const closed = input.closed === true;
  const usage = input.projects?.length ? await projectUsage(cx.db, repo) : null;
  const issue = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const now = new Date();
      const row = await insertIssueRow(tx, {
        repoId: repo.id,
        posterId: viewer.id,
        title,
        content: input.body ?? '',
        ref: input.ref ?? '',
        milestoneId: milestone?.id ?? null,
        deadlineAt: writer && input.dueDate ? input.dueDate : null,
        isClosed: closed,
        closedAt: closed ? now : null,
      });
      const { index } = row;
      const comments = await writeInitialRelations(tx, row.id, viewer.id, { labelIds, milestoneId: milestone?.id ?? null, assignees });
      if (closed) comments.push({ type: 'CLOSE', posterId: viewer.id, issueId: row.id });
      if (comments.length) await insertRows(tx, 'Comment', comments);
      await refreshMilestone(tx, row.milestoneId);
      await shiftLabelCounters(tx, labelIds, { issues: 1, closed: closed ? 1 : 0 });
      if (usage) await setIssueProjects(tx, row, input.projects ?? [], usage, viewer.id);
      emit(issueCreatedEvent(row, viewer.id, access.facts));
      if (closed) emit({ type: 'issue.closed', issueId: row.id, repoId: repo.id, index, actorId: viewer.id });
      return row;
    }),
  );
  // The new issue's labels, assignees and (without projects) projects are what this write linked, and it has no
  // attachments: its view reads only what the write does not have at hand (the milestone, the projects given).
  const known = { labels: labels.map((l) => labelViewOf(l, repo)), assignees: assignees.map(viewUserOf), attachments: [] };
  return loadIssueView(cx.db, issue, [repo], [viewUserOf(viewer)], usage ? known : { ...known, projects: [] });
}

/**
 * createIssue for a repository known by its database id (the graph's repositoryId). An unknown id goes on to the
 * gates with no repository, so it is answered exactly as an invisible one (NotFound).
 * @throws as createIssue
 */
export async function createIssueInRepo(cx: ServiceContext, repoId: number, input: CreateIssueInput): Promise<IssueView> {
  const row =
    repoId > 0 && repoId <= 2_147_483_647
      ? await cx.db.repository.findUnique({ where: { id: repoId }, select: { ownerName: true, name: true } })
      : null;
  return createIssue(cx, row ? { owner: row.ownerName, repo: row.name } : { owner: '', repo: '' }, input);
}
