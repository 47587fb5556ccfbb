import type { DbLike, DbTx, Models } from '../../db/client.ts';
import { InvalidArgumentError, ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { exclusiveScope } from '../label/color.ts';
import { requireIssueWriter, type IssueTarget } from './assignee.ts';
import { keepLastOfEachScope } from './create.ts';
import { withRetry } from '../dbErrors.ts';
import { findIssueByIndex, issueLabelViews, type IssueLabelView } from './issue.ts';
import { insertRows } from '../../db/insertRows.ts';
import { readRowsForUpdate } from '../../db/readPath.ts';
import { relinkLabels } from './relinkLabels.ts';
import { usableLabels, type UsableLabel } from '../label/usableLabels.ts';

type Label = UsableLabel;

/** An issue (as it was before the change) and its labels after it. */
export interface LabeledIssue {
  issue: Models.Issue;
  labels: IssueLabelView[];
}

/** Labels named by id or by name (Gitea IssueLabelsOption: all integers or all strings). */
export type LabelRefs = { ids: readonly number[] } | { names: readonly string[] };

const MAX_ID = 2_147_483_647;

/**
 * Reads Gitea's IssueLabelsOption `labels`: JSON numbers are ids (fractions truncated, as Gitea's int64
 * conversion), strings are names; anything else, or numbers mixed with strings, is a 400.
 * @throws InvalidArgumentError
 */
export function parseLabelRefs(values: readonly unknown[] | null | undefined): LabelRefs {
  const ids: number[] = [];
  const names: string[] = [];
  for (const v of values ?? []) {
    if (typeof v === 'number' && Number.isFinite(v)) ids.push(Math.trunc(v));
    else if (typeof v === 'string') names.push(v);
    else throw new InvalidArgumentError('a label must be an integer or a string');
  }
  if (ids.length && names.length) throw new InvalidArgumentError('labels should be an array of strings or integers');
  return names.length ? { names } : { ids };
}

/**
 * The labels `refs` names that are usable on the repository, in the order given; unknown, foreign and
 * duplicate ones are dropped silently, as Gitea does.
 */
async function resolveLabels(db: DbLike, repo: Models.Repository, refs: LabelRefs): Promise<Label[]> {
  if ('names' in refs) {
    const names = [...new Set(refs.names)];
    const rows = await usableLabels(db, repo, 'name', names);
    return names.flatMap((n) => rows.filter((r) => r.name === n));
  }
  const ids = [...new Set(refs.ids.filter((id) => id > 0 && id <= MAX_ID))];
  const rows = await usableLabels(db, repo, 'id', ids);
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

/** An issue's labels with what their URLs need, by name then id (Gitea GetLabelsByIssueID): one statement. */
export async function loadIssueLabels(db: DbLike, issueId: number): Promise<IssueLabelView[]> {
  return (await issueLabelViews(db, [issueId])).get(issueId) ?? [];
}

/**
 * Moves the issue from its current labels to `next` inside one transaction: issue_label rows, a LABEL
 * timeline comment per change (content "1" added, "" removed, as Gitea), exact label counters, and an
 * `issue.updated` event when anything changed.
 */
async function applyLabels(cx: ServiceContext, issue: Models.Issue, next: (current: Label[]) => Label[]): Promise<void> {
  const viewer = requireViewer(cx);
  await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      // The issue's state as this transaction sees it (a row even without labels), for the labels' closed counters;
      // the issue locked until the commit, so a close, reopen or delete of it waits and then sees these links.
      const rows = await readRowsForUpdate<'Label', Label & { issueClosed: unknown }>(
        tx,
        'Label',
        `SELECT i."isClosed" AS "issueClosed", l."id", l."name", l."exclusive" FROM "Issue" i
         LEFT JOIN "IssueLabel" il ON il."issueId" = i."id" LEFT JOIN "Label" l ON l."id" = il."labelId" WHERE i."id" = ?`,
        [issue.id],
        'i',
      );
      const isClosed = rows.some((r) => r.issueClosed === true || r.issueClosed === 1);
      const current = rows.filter((r) => r.id !== null);
      const want = new Set(next(current).map((l) => l.id));
      const have = new Set(current.map((l) => l.id));
      const removed = [...have].filter((id) => !want.has(id));
      const added = [...want].filter((id) => !have.has(id));
      if (!removed.length && !added.length) return;
      await writeChanges(tx, issue.id, viewer.id, added, removed, isClosed);
      emit({ type: 'issue.updated', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId: viewer.id, fields: ['labels'] });
    }),
  );
}

async function writeChanges(
  tx: DbTx,
  issueId: number,
  actorId: number,
  added: number[],
  removed: number[],
  isClosed: boolean,
): Promise<void> {
  await insertRows(tx, 'Comment', await relinkLabels(tx, { issueId, actorId, added, removed, isClosed }));
}

/**
 * The current labels plus `adding` (Gitea newIssueLabels): a label already there is left alone; adding an
 * exclusive label drops the issue's other labels of its scope (of several given for one scope, the last wins).
 */
function withAdded(current: readonly Label[], adding: readonly Label[]): Label[] {
  let result = [...current];
  for (const label of adding) {
    if (result.some((l) => l.id === label.id)) continue;
    const scope = exclusiveScope(label);
    if (scope !== null) result = result.filter((l) => exclusiveScope(l) !== scope);
    result.push(label);
  }
  return result;
}

/**
 * An issue's or pull request's labels (GET …/issues/{index}/labels), by name. Readers only; not paginated.
 * @throws NotFoundError
 */
export async function listIssueLabels(cx: ServiceContext, ref: RepoRef, index: number): Promise<IssueLabelView[]> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  return loadIssueLabels(cx.db, issue.id);
}

/**
 * Adds labels (POST …/issues/{index}/labels, Gitea AddIssueLabels) and returns the issue's labels. Only
 * writers of the issue's unit (403 `write permission is required`); `labels` are ids or names (parseLabelRefs,
 * 400 after the permission check, as Gitea); labels must be the repository's or its organization's, others
 * are dropped silently; exclusive labels replace the issue's labels of the same scope.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError
 */
export async function addIssueLabels(cx: ServiceContext, target: IssueTarget, labels: readonly unknown[]): Promise<LabeledIssue> {
  const { access, issue } = await requireLabelWriter(cx, target);
  const adding = await resolveLabels(cx.db, access.repo, parseLabelRefs(labels));
  if (adding.length) await applyLabels(cx, issue, (current) => withAdded(current, adding));
  return { issue, labels: await loadIssueLabels(cx.db, issue.id) };
}

/**
 * Replaces the labels (PUT …/issues/{index}/labels, Gitea ReplaceIssueLabels; `[]` clears them) and returns
 * them. Same rules as addIssueLabels; of several exclusive labels of one scope, the last one given is kept.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError
 */
export async function replaceIssueLabels(cx: ServiceContext, target: IssueTarget, labels: readonly unknown[]): Promise<LabeledIssue> {
  const { access, issue } = await requireLabelWriter(cx, target);
  const next = keepLastOfEachScope(await resolveLabels(cx.db, access.repo, parseLabelRefs(labels)));
  await applyLabels(cx, issue, () => next);
  return { issue, labels: await loadIssueLabels(cx.db, issue.id) };
}

/**
 * Removes every label (DELETE …/issues/{index}/labels, Gitea ClearIssueLabels).
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function clearIssueLabels(cx: ServiceContext, target: IssueTarget): Promise<Models.Issue> {
  const { issue } = await requireIssueWriter(cx, target);
  await applyLabels(cx, issue, () => []);
  return issue;
}

/**
 * Removes labels by id (DELETE …/issues/{index}/labels/{id}, Gitea DeleteIssueLabel). Each id must name a
 * label of the repository or its organization (422 `label does not exist [label_id: N]` otherwise, so labels
 * elsewhere are indistinguishable from missing ones); a label the issue does not carry is a no-op.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function removeIssueLabels(cx: ServiceContext, target: IssueTarget, labelIds: readonly number[]): Promise<Models.Issue> {
  const { access, issue } = await requireIssueWriter(cx, target);
  const ids = [...new Set(labelIds)];
  const valid = ids.filter((id) => id > 0 && id <= MAX_ID);
  const found = await usableLabels(cx.db, access.repo, 'id', valid);
  const missing = ids.find((id) => !found.some((l) => l.id === id));
  if (missing !== undefined) throw new ValidationError(`label does not exist [label_id: ${missing}]`, { labelId: missing });
  const gone = new Set(ids);
  await applyLabels(cx, issue, (current) => current.filter((l) => !gone.has(l.id)));
  return issue;
}

/** Gitea's add and replace handlers answer their 403 with a message (the other label handlers with an empty body). */
const WRITE_REQUIRED = { message: 'write permission is required' };

async function requireLabelWriter(cx: ServiceContext, target: IssueTarget): ReturnType<typeof requireIssueWriter> {
  return requireIssueWriter(cx, target, WRITE_REQUIRED);
}
