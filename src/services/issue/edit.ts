import { shiftClosedCountersOfIssue } from '../../db/labelCounters.ts';
import { isWorkInProgress } from './wip.ts';
import type { DbTx, Models } from '../../db/client.ts';
import { ConflictError, NotFoundError, PreconditionFailedError, ValidationError } from '../../errors.ts';
import { withEventIssue } from '../../notify/eventReads.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { normalizeTitle, refreshMilestone, requireText, resolveAssignees, usableLabelIds } from './create.ts';
import { withRetry } from '../dbErrors.ts';
import { requireNoOpenDependencies } from './dependency.ts';
import { findIssueByIndex, issueById, loadIssueView, lockIssueRow, requirePosterOrWriter, viewUserOf, type IssueView } from './issue.ts';
import { relinkLabels } from './relinkLabels.ts';
import { projectUsage, setIssueProjects } from './issueProject.ts';
import { insertRows } from '../../db/insertRows.ts';
import { updateRowById, updateRowReturning, type RowChange } from '../../db/updateRow.ts';

/** PATCH /repos/{o}/{r}/issues/{index} (Gitea EditIssueOption); absent fields do not change. */
export interface EditIssueInput {
  title?: string;
  body?: string;
  /** The content version the client last read; with `body`, a different current version is a Conflict (Gitea 409). */
  contentVersion?: number;
  ref?: string;
  assignee?: string;
  assignees?: string[];
  /** Assignees by user id (the graph's assigneeIds), with the names: together they are the new set. */
  assigneeIds?: number[];
  /** 0 removes the milestone. */
  milestone?: number;
  /** `closed` closes; any other value reopens (as Gitea). */
  state?: string;
  /** RFC 3339; only the date counts: stored as 23:59:59 of that day in the given offset (Gitea EditIssue). */
  dueDate?: string | null;
  unsetDueDate?: boolean;
  /** Label ids replacing the labels (writers only; `[]` removes them all; unknown or foreign ids are dropped; organization labels allowed). Gitea's pull request edit and GitHub's updateIssue `labelIds`; Gitea's PATCH /issues has none. */
  labels?: number[];
  /** Project ids replacing the issue's projects (writers only, as Gitea); unknown or unusable ids are a 400. */
  projects?: number[];
}

/** How a caller other than PATCH /issues runs the edit (the pull request edit, Gitea EditPullRequest). */
export interface EditIssueOptions {
  /** The repository gate the caller already passed (pull request routes have their own). */
  access?: RepoAccess;
  /** The poster may set the due date too (Gitea EditPullRequest; EditIssue leaves it to writers). */
  posterSetsDueDate?: boolean;
  /** Checks run after the issue fields' own checks and before anything is written. */
  check?: (issue: Models.Issue, writer: boolean) => Promise<void>;
  /** More writes inside the edit's transaction, after the issue fields; they record what they change in `c`. */
  write?: (tx: DbTx, issue: Models.Issue, c: Change) => Promise<void>;
}

/** 23:59:59 of the RFC 3339 value's calendar day, in its own offset. */
export function endOfDay(value: string): Date {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ].*?(Z|z|[+-]\d{2}:\d{2})$/.exec(value);
  const d = new Date(m ? `${m[1]}T23:59:59${m[2]!.toUpperCase()}` : value);
  if (Number.isNaN(d.getTime())) throw new ValidationError('Invalid', { field: 'due_date', rule: 'Invalid' });
  return d;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

/** What one edit changed: field names for the event, timeline comments to insert, events to emit after commit. */
export type Change = {
  fields: string[];
  comments: Models.Prisma.CommentCreateManyInput[];
  events: DomainEvent[];
  /** Previous values of the changed title, body and ref (for the event). */
  old?: { title?: string; body?: string; ref?: string };
  /** Assignees added and removed (for the event). */
  assignees?: { added: number[]; removed: number[] };
};

/** Emits what a change of `issue` by `actorId` amounts to: `issue.updated` (with its detail) and the change's own events. */
export function emitChange(emit: (e: DomainEvent) => void, issue: Models.Issue, actorId: number, c: Change, current?: Models.Issue): void {
  if (c.fields.length) {
    const event: Extract<DomainEvent, { type: 'issue.updated' }> = {
      type: 'issue.updated',
      issueId: issue.id,
      repoId: issue.repoId,
      index: issue.index,
      actorId,
      fields: c.fields,
      ...(c.old ? { old: c.old } : {}),
      ...(c.assignees ? { assignees: c.assignees } : {}),
    };
    // The issue as the write left it, when the writer has it: the subscribers (mentions of an edited body) read it no more.
    emit(current ? withEventIssue(event, current) : event);
  }
  c.events.forEach(emit);
}

async function changeState(tx: DbTx, issue: Models.Issue, close: boolean, actorId: number, c: Change, commitSha = ''): Promise<void> {
  if (issue.isClosed === close) return;
  // A conditional update: of two concurrent identical transitions only one counts.
  const { count } = await tx.issue.updateMany({
    where: { id: issue.id, isClosed: !close },
    data: { isClosed: close, closedAt: close ? new Date() : null },
  });
  if (count === 0) return;
  const delta = close ? { increment: 1 } : { decrement: 1 };
  await tx.repository.update({ where: { id: issue.repoId }, data: issue.isPull ? { numClosedPulls: delta } : { numClosedIssues: delta } });
  c.fields.push('state');
  c.comments.push({ type: close ? 'CLOSE' : 'REOPEN', posterId: actorId, issueId: issue.id, ...(commitSha ? { commitSha } : {}) });
  c.events.push({ type: close ? 'issue.closed' : 'issue.reopened', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId });
}

/** Replaces the issue's labels inside `tx` (LABEL comments: content "1" added, "" removed; exact counters). */
async function replaceLabels(tx: DbTx, issue: Models.Issue, labelIds: readonly number[], actorId: number, c: Change): Promise<void> {
  const have = new Set((await tx.issueLabel.findMany({ where: { issueId: issue.id }, select: { labelId: true } })).map((r) => r.labelId));
  const want = new Set(labelIds);
  const removed = [...have].filter((id) => !want.has(id));
  const added = [...want].filter((id) => !have.has(id));
  if (!removed.length && !added.length) return;
  // By the state the issue had before this edit: a state change in the same edit shifts the labels it ends with.
  c.comments.push(...(await relinkLabels(tx, { issueId: issue.id, actorId, added, removed, isClosed: issue.isClosed })));
  c.fields.push('labels');
}

/** Sets the issue's assignees to exactly `users` inside `tx`, recording an ASSIGNEES timeline comment per added or removed user in `c`. */
export async function replaceAssignees(
  tx: DbTx,
  issue: Pick<Models.Issue, 'id' | 'repoId' | 'index'>,
  users: readonly Pick<Models.User, 'id'>[],
  actorId: number,
  c: Change,
): Promise<void> {
  const current = await tx.issueAssignee.findMany({ where: { issueId: issue.id }, select: { assigneeId: true } });
  const have = new Set(current.map((r) => r.assigneeId));
  const want = new Set(users.map((u) => u.id));
  const removed = [...have].filter((id) => !want.has(id));
  const added = [...want].filter((id) => !have.has(id));
  if (!removed.length && !added.length) return;
  if (removed.length) await tx.issueAssignee.deleteMany({ where: { issueId: issue.id, assigneeId: { in: removed } } });
  if (added.length)
    await insertRows(
      tx,
      'IssueAssignee',
      added.map((assigneeId) => ({ issueId: issue.id, assigneeId })),
    );
  c.fields.push('assignees');
  c.assignees = { added, removed };
  for (const id of removed)
    c.comments.push({ type: 'ASSIGNEES', posterId: actorId, issueId: issue.id, assigneeId: id, removedAssignee: true });
  for (const id of added) c.comments.push({ type: 'ASSIGNEES', posterId: actorId, issueId: issue.id, assigneeId: id });
  if (added.length)
    c.events.push({ type: 'issue.assigned', issueId: issue.id, repoId: issue.repoId, index: issue.index, assigneeIds: added, actorId });
}

function deadlineComment(issue: Models.Issue, next: Date | null, actorId: number): Models.Prisma.CommentCreateManyInput | null {
  const prev = issue.deadlineAt;
  if ((prev?.getTime() ?? null) === (next?.getTime() ?? null)) return null;
  if (!next) return { type: 'REMOVED_DEADLINE', posterId: actorId, issueId: issue.id, content: prev ? day(prev) : '' };
  if (!prev) return { type: 'ADDED_DEADLINE', posterId: actorId, issueId: issue.id, content: day(next) };
  return { type: 'MODIFIED_DEADLINE', posterId: actorId, issueId: issue.id, content: `${day(next)}|${day(prev)}` };
}

/** What an edit sets on the issue's own row, computed from `issue` as read: the columns, and what the change records. */
function fieldChanges(
  issue: Models.Issue,
  input: EditIssueInput,
  actorId: number,
  deadline: Date | null | undefined,
  milestoneId: number | null | undefined,
): { data: RowChange<'Issue'>; c: Change } {
  const c: Change = { fields: [], comments: [], events: [] };
  const data: RowChange<'Issue'> = {};
  const title = input.title ? normalizeTitle(input.title) : '';
  if (title && title !== issue.title) {
    data.title = title;
    c.fields.push('title');
    (c.old ??= {}).title = issue.title;
    c.comments.push({ type: 'CHANGE_TITLE', posterId: actorId, issueId: issue.id, oldTitle: issue.title, newTitle: title });
    if (issue.isPull && isWorkInProgress(issue.title) && !isWorkInProgress(title))
      c.events.push({ type: 'pull.readyForReview', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId });
  }
  if (input.body !== undefined && input.body !== issue.content) {
    data.content = input.body;
    data.contentVersion = { increment: 1 };
    c.fields.push('body');
    (c.old ??= {}).body = issue.content;
  }
  if (input.ref !== undefined && input.ref !== issue.ref) {
    data.ref = input.ref;
    c.fields.push('ref');
    (c.old ??= {}).ref = issue.ref;
    c.comments.push({ type: 'CHANGE_ISSUE_REF', posterId: actorId, issueId: issue.id, oldRef: issue.ref, newRef: input.ref });
  }
  if (deadline !== undefined) {
    const comment = deadlineComment(issue, deadline, actorId);
    if (comment) {
      data.deadlineAt = deadline;
      c.fields.push('due_date');
      c.comments.push(comment);
    }
  }
  if (milestoneId !== undefined && milestoneId !== issue.milestoneId) {
    data.milestoneId = milestoneId;
    c.fields.push('milestone');
    c.comments.push({ type: 'MILESTONE', posterId: actorId, issueId: issue.id, milestoneId, oldMilestoneId: issue.milestoneId });
  }
  return { data, c };
}

/**
 * The columns a plain edit's change was computed from, with the values it read (`found`): the change applies only
 * while they hold (updateRowReturning's guard), so its timeline comment and event name what it replaced. Null
 * when the change sets more than the title and body (those computed from nullable columns take the locked read).
 */
function plainGuard(
  found: Models.Issue,
  data: RowChange<'Issue'>,
  contentVersion: number | undefined,
): Record<string, string | number> | null {
  const keys = Object.keys(data);
  if (!keys.length || !keys.every((k) => k === 'title' || k === 'content' || k === 'contentVersion')) return null;
  return {
    ...(data.title !== undefined ? { title: found.title } : {}),
    ...(data.content !== undefined ? { content: found.content } : {}),
    ...(contentVersion !== undefined ? { contentVersion } : {}),
  };
}

/**
 * Edits an issue or pull request (Gitea EditIssue): only its poster or a writer of its unit (403 otherwise);
 * assignees, milestone and due date change only for writers (silently ignored for the poster). Closing and
 * reopening record CLOSE/REOPEN timeline comments and keep the repository and milestone counters exact.
 * A `body` with a stale `contentVersion` is a Conflict; closing while a blocker is open (dependencies enabled) is
 * PreconditionFailed. The edit is one transaction, so a refused edit changes nothing. `opts` adapts it for pull
 * requests (their own gate, poster due dates, extra checks and writes in the same transaction).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError, PreconditionFailedError, ConflictError, InvalidArgumentError (projects)
 */
export async function editIssue(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  input: EditIssueInput,
  opts: EditIssueOptions = {},
): Promise<IssueView> {
  const access = opts.access ?? (await resolveIssueRepo(cx, ref, 'write'));
  const viewer = requireViewer(cx);
  const found = await findIssueByIndex(cx, access, index);
  const writer = requirePosterOrWriter(cx, access, found);
  requireText(input.title, 'title');
  requireText(input.body, 'body');
  requireText(input.ref, 'ref');
  const wantAssignees = writer && (input.assignees !== undefined || input.assignee !== undefined || input.assigneeIds !== undefined);
  const labelIds = writer && input.labels !== undefined ? await usableLabelIds(cx, access.repo, input.labels) : null;
  const usage = writer && input.projects !== undefined ? await projectUsage(cx.db, access.repo) : null;
  const assignees = wantAssignees
    ? await resolveAssignees(cx, access, [...(input.assignee ? [input.assignee] : []), ...(input.assignees ?? [])], input.assigneeIds)
    : [];
  let milestoneId: number | null | undefined;
  if (writer && input.milestone !== undefined) {
    if (input.milestone === 0) milestoneId = null;
    else {
      const m = await cx.db.milestone.findFirst({ where: { id: input.milestone, repoId: access.repo.id }, select: { id: true } });
      if (!m)
        throw new ValidationError(`milestone does not exist [id: ${input.milestone}, repo_id: ${access.repo.id}]`, {
          milestone: input.milestone,
        });
      milestoneId = m.id;
    }
  }
  let deadline: Date | null | undefined;
  if ((writer || opts.posterSetsDueDate === true) && (input.dueDate !== undefined || input.unsetDueDate !== undefined)) {
    deadline = input.unsetDueDate !== true && input.dueDate ? endOfDay(input.dueDate) : null;
  }
  if (input.state !== undefined && found.isPull) {
    const pr = await cx.db.pullRequest.findUnique({ where: { issueId: found.id }, select: { hasMerged: true } });
    if (pr?.hasMerged) throw new PreconditionFailedError('cannot change state of this pull request, it was already merged');
  }
  if (opts.check) await opts.check(found, writer);
  // Only the issue's own fields change in a plain edit (no labels, assignees, state, projects, or caller's write):
  // the row the UPDATE returns is the one to answer with, without reading it again.
  const plain = !labelIds && !wantAssignees && input.state === undefined && !usage && !opts.write;
  const updated = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      if (plain) {
        // The title and body changed from the row read before the transaction, in one statement while that row's
        // values hold; otherwise (another edit came between) the edit below reads the row locked and starts over.
        const { data, c } = fieldChanges(found, input, viewer.id, deadline, milestoneId);
        const guard = plainGuard(found, data, input.body !== undefined ? input.contentVersion : undefined);
        const changed = guard && (await updateRowReturning(tx, 'Issue', found.id, data, guard));
        if (changed) {
          if (c.comments.length) await insertRows(tx, 'Comment', c.comments);
          emitChange(emit, found, viewer.id, c, changed);
          return changed;
        }
      }
      const issue = await issueRow(tx, found.id, true);
      if (input.body !== undefined && input.contentVersion !== undefined) {
        // A conditional no-op write: it takes the row lock, so of two edits made from the same version only the first passes.
        const { count } = await tx.issue.updateMany({
          where: { id: issue.id, contentVersion: input.contentVersion },
          data: { contentVersion: input.contentVersion },
        });
        if (count === 0)
          throw new ConflictError('the issue is already changed', { issueId: issue.id, contentVersion: input.contentVersion });
      }
      if (input.state === 'closed' && !issue.isClosed) await requireNoOpenDependencies(tx, issue);
      const { data, c } = fieldChanges(issue, input, viewer.id, deadline, milestoneId);
      let changed: Models.Issue | null = null;
      if (Object.keys(data).length) {
        if (plain) changed = await updateRowReturning(tx, 'Issue', issue.id, data);
        else await updateRowById(tx, 'Issue', issue.id, data);
      }
      if (labelIds) await replaceLabels(tx, issue, labelIds, viewer.id, c);
      if (wantAssignees) await replaceAssignees(tx, issue, assignees, viewer.id, c);
      if (input.state !== undefined) await changeState(tx, issue, input.state === 'closed', viewer.id, c);
      if (usage && (await setIssueProjects(tx, issue, input.projects ?? [], usage, viewer.id))) c.fields.push('projects');
      if (opts.write) await opts.write(tx, issue, c);
      if (c.comments.length) await insertRows(tx, 'Comment', c.comments);
      if (c.fields.includes('milestone') || c.fields.includes('state')) {
        await refreshMilestone(tx, issue.milestoneId);
        if (milestoneId !== undefined && milestoneId !== issue.milestoneId) await refreshMilestone(tx, milestoneId);
      }
      if (c.fields.includes('state')) await shiftClosedCountersOfIssue(tx, issue.id, !issue.isClosed);
      const current = plain ? (changed ?? issue) : await issueRow(tx, issue.id);
      emitChange(emit, issue, viewer.id, c, current);
      return current;
    }),
  );
  return loadIssueView(cx.db, updated, [access.repo], [viewUserOf(viewer)]);
}

/**
 * An issue's row as the transaction sees it (raw: a Prisma findUnique cost more than its statement); `lock`: locked
 * for the rest of the transaction (lockIssueRow), as an edit that may change labels or state reads it first.
 */
async function issueRow(tx: DbTx, id: number, lock = false): Promise<Models.Issue> {
  const row = lock ? await lockIssueRow(tx, id) : await issueById(tx, id);
  if (!row) throw new NotFoundError('issue not found', { issueId: id });
  return row;
}

/**
 * Closes an issue or pull request on behalf of `actorId` without the edit gates, for system paths (Gitea
 * CloseBranchPulls: deleting a branch closes the pull requests from and into it). Same side effects as a
 * close through editIssue: the CLOSE comment, exact repository, milestone and label counters, the events.
 */
export async function closeIssueBySystem(cx: ServiceContext, issueId: number, actorId: number): Promise<void> {
  await setIssueStateBySystem(cx, issueId, true, actorId);
}

/**
 * Closes or reopens an issue on behalf of `actorId` without the edit gates (the caller checked the actor's
 * right), as Gitea ChangeStatus with a commit: the CLOSE/REOPEN comment carries `commitSha` when a commit or a
 * merged pull request caused it. Nothing happens when the issue is already in that state.
 */
export async function setIssueStateBySystem(
  cx: ServiceContext,
  issueId: number,
  close: boolean,
  actorId: number,
  commitSha = '',
): Promise<void> {
  await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const issue = await tx.issue.findUnique({ where: { id: issueId } });
      if (!issue) return;
      const c: Change = { fields: [], comments: [], events: [] };
      await changeState(tx, issue, close, actorId, c, commitSha);
      if (!c.fields.length) return;
      await insertRows(tx, 'Comment', c.comments);
      await refreshMilestone(tx, issue.milestoneId);
      await shiftClosedCountersOfIssue(tx, issue.id, close);
      emit({ type: 'issue.updated', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId, fields: c.fields });
      c.events.forEach(emit);
    }),
  );
}
