import { z } from 'zod';
import { qString } from '../params.ts';
import { goName, wireType, withAliases, zBool, zInt, zStringList } from '../validation.ts';

const zDateTime = z.iso.datetime({ offset: true });

/**
 * Gitea `EditPullRequestOption`: every field optional; only given fields change. `labels` null leaves the
 * labels alone and `[]` removes them all; `milestone` 0 changes nothing.
 */
export const EditPullRequestOption = z.object({
  title: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  base: z.string().nullable().optional(),
  assignee: z.string().nullable().optional(),
  assignees: zStringList.nullable().optional(),
  milestone: zInt.nullable().optional(),
  labels: z.array(zInt).nullable().optional(),
  state: z.string().nullable().optional(),
  due_date: goName(zDateTime.nullable().optional(), 'Deadline'),
  unset_due_date: goName(zBool.nullable().optional(), 'RemoveDeadline'),
  allow_maintainer_edit: zBool.nullable().optional(),
  content_version: zInt.nullable().optional(),
});

const optString = z.string().nullable().optional();

/** Gitea's merge styles; `Do` is validated by the service (after the repository gates), so the schema only documents them. */
const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'];
const mergeStyle = () => wireType(z.string().nullable().optional(), { type: 'string', enum: MERGE_STYLES });

/**
 * Gitea `MergePullRequestForm`, with its UnmarshalJSON aliases (`Do`, `MergeTitleField`, `MergeMessageField`,
 * `MergeCommitID` beside the snake_case names), accepted on the wire and left out of the document, where `do` is
 * required as in Gitea's. `Do` is validated by the service, after the repository gates.
 */
export const MergePullRequestOption = withAliases(
  z.object({
    do: mergeStyle(),
    Do: mergeStyle(),
    merge_title_field: optString,
    MergeTitleField: optString,
    merge_message_field: optString,
    MergeMessageField: optString,
    merge_commit_id: optString,
    MergeCommitID: optString,
    head_commit_id: optString,
    force_merge: zBool.nullable().optional(),
    merge_when_checks_succeed: zBool.nullable().optional(),
    delete_branch_after_merge: zBool.nullable().optional(),
  }),
  ['Do', 'MergeTitleField', 'MergeMessageField', 'MergeCommitID'],
  ['do'],
);
/** A MergePullRequestForm as parsed. */
export type MergePullRequestOption = z.infer<typeof MergePullRequestOption>;

/** Query of POST /pulls/{index}/update: `merge` (the default) merges the base into the head, `rebase` rebases the head onto it. */
export const UpdatePullRequestQuery = z.object({
  style: qString('how to update pull request', { enum: ['merge', 'rebase'] }),
});
