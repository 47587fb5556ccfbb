// Issue locks and pins: /repos/{o}/{r}/issues/{index}/lock, …/pin, …/pin/{position}, /issues/pinned,
// /pulls/pinned and /new_pin_allowed (Gitea routers/api/v1/repo/issue_lock.go, issue_pin.go).
import * as lockService from '../../../services/issue/lock.ts';
import * as pinService from '../../../services/issue/pin.ts';
import { listPinnedPulls } from '../../../services/pull/pinned.ts';
import { toApiIssueList } from '../../convert/issue.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPullRequestList } from '../../convert/pull.ts';
import { indexParam, intParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { LockIssueOption } from '../../structs/issuePin.ts';

export const issuePinRoutes = [
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/issues/{index}/lock',
    operationId: 'issueLockIssue',
    summary: 'Lock an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    body: LockIssueOption,
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params, body }) => {
      await lockService.lockIssue(cx, repoRef(params), indexParam(params), body.lock_reason ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/lock',
    operationId: 'issueUnlockIssue',
    summary: 'Unlock an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await lockService.unlockIssue(cx, repoRef(params), indexParam(params));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/pin',
    operationId: 'pinIssue',
    summary: 'Pin an Issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await pinService.pinIssue(cx, repoRef(params), indexParam(params));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/pin',
    operationId: 'unpinIssue',
    summary: 'Unpin an Issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await pinService.unpinIssue(cx, repoRef(params), indexParam(params));
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/issues/{index}/pin/{position}',
    operationId: 'moveIssuePin',
    summary: 'Moves the Pin to the given Position',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'token',
    params: { position: { schema: { type: 'integer', format: 'int64' }, description: 'the new position' } },
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await pinService.moveIssuePin(cx, repoRef(params), indexParam(params), intParam(params.position));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/pinned',
    operationId: 'repoListPinnedIssues',
    summary: "List a repo's pinned issues",
    tag: 'repository',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: '[Issue]' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiIssueList(await pinService.listPinnedIssues(cx, repoRef(params)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/pulls/pinned',
    operationId: 'repoListPinnedPullRequests',
    summary: "List a repo's pinned pull requests",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[PullRequest]' },
    errors: [404],
    handler: async ({ cx, params }) => toApiPullRequestList(await listPinnedPulls(cx, repoRef(params)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/new_pin_allowed',
    operationId: 'repoNewPinAllowed',
    summary: 'Returns if new Issue Pins are allowed',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'NewIssuePinsAllowed' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const allowed = await pinService.newPinAllowed(cx, repoRef(params));
      return { issues: allowed.issues, pull_requests: allowed.pullRequests };
    },
  }),
];
