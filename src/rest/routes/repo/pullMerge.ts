import { isDomainError, NotFoundError } from '../../../errors.ts';
import { cancelAutoMerge } from '../../../services/pull/autoMerge.ts';
import { editPullRequest } from '../../../services/pull/edit.ts';
import { isPullRequestMerged, mergePullRequest } from '../../../services/pull/merge.ts';
import { updatePullHead } from '../../../services/pull/updateHead.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPullRequest } from '../../convert/pull.ts';
import { swaggerUrlOf } from '../../frameworkErrors.ts';
import { indexParam, repoRef } from '../../params.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { EditPullRequestOption, MergePullRequestOption, UpdatePullRequestQuery } from '../../structs/pullMerge.ts';

/** Gitea's alias pairs: the snake_case field, else the Go field name (empty strings count as absent). */
const either = (a: string | null | undefined, b: string | null | undefined): string | undefined => a || b || undefined;

/** PATCH /repos/{o}/{r}/pulls/{index}; POST and GET /repos/{o}/{r}/pulls/{index}/merge; POST …/update. */
export const pullMergeRoutes: readonly RouteDef[] = [
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/pulls/{index}',
    operationId: 'repoEditPullRequest',
    summary: 'Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: EditPullRequestOption,
    // Gitea answers 201 here (its code says it should be 200).
    success: { status: 201, schema: 'PullRequest' },
    errors: [401, 403, 404, 409, 412, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await editPullRequest(cx, repoRef(params), indexParam(params), {
        title: body.title ?? undefined,
        body: body.body ?? undefined,
        contentVersion: body.content_version ?? undefined,
        base: body.base ?? undefined,
        assignee: body.assignee ?? undefined,
        assignees: body.assignees ?? undefined,
        milestone: body.milestone ?? undefined,
        labels: body.labels ?? undefined,
        state: body.state ?? undefined,
        dueDate: body.due_date ?? undefined,
        unsetDueDate: body.unset_due_date ?? undefined,
        allowMaintainerEdit: body.allow_maintainer_edit ?? undefined,
      });
      return toApiPullRequest(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/{index}/merge',
    operationId: 'repoPullRequestIsMerged',
    summary: 'Check if a pull request has been merged',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 204, description: 'the pull request has been merged' },
    errors: [404],
    handler: async ({ cx, params }) => {
      if (!(await isPullRequestMerged(cx, repoRef(params), indexParam(params)))) throw new NotFoundError('not found');
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{index}/merge',
    operationId: 'repoMergePullRequest',
    summary: 'Merge a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: MergePullRequestOption,
    success: { status: 200, description: 'merged (no body)' },
    errors: [401, 403, 404, 405, 409, 422, 423],
    handler: async ({ cx, params, body, reply }) => {
      let scheduled: boolean;
      try {
        const result = await mergePullRequest(cx, repoRef(params), indexParam(params), {
          do: either(body.do, body.Do),
          mergeTitleField: either(body.merge_title_field, body.MergeTitleField),
          mergeMessageField: either(body.merge_message_field, body.MergeMessageField),
          mergeCommitId: either(body.merge_commit_id, body.MergeCommitID),
          headCommitId: body.head_commit_id ?? undefined,
          forceMerge: body.force_merge ?? undefined,
          mergeWhenChecksSucceed: body.merge_when_checks_succeed ?? undefined,
          deleteBranchAfterMerge: body.delete_branch_after_merge ?? undefined,
        });
        scheduled = result.scheduled === true;
      } catch (err) {
        // Gitea answers the merge refusals of CheckPullMergeable and disallowed styles with 405.
        if (isDomainError(err) && err.data.reason === 'MERGE_NOT_ALLOWED') {
          return reply
            .code(405)
            .type('application/json;charset=utf-8')
            .send({ message: err.message, url: swaggerUrlOf(cx.config.rootUrl) });
        }
        throw err;
      }
      // Gitea answers a scheduled merge (merge_when_checks_succeed) with 201 and no body.
      return reply.code(scheduled ? 201 : 200).send();
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/pulls/{index}/merge',
    operationId: 'repoCancelScheduledAutoMerge',
    summary: 'Cancel the scheduled auto merge for the given pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404, 423],
    handler: async ({ cx, params }) => {
      await cancelAutoMerge(cx, repoRef(params), indexParam(params));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{index}/update',
    operationId: 'repoUpdatePullRequest',
    summary: "Merge PR's baseBranch into headBranch",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    query: UpdatePullRequestQuery,
    success: { status: 200 },
    errors: [401, 403, 404, 409, 422],
    handler: async ({ cx, params, query }) => {
      await updatePullHead(cx, repoRef(params), indexParam(params), query.style === 'rebase' ? 'rebase' : 'merge');
    },
  }),
];
