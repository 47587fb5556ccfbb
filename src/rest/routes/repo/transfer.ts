// /repos/{o}/{r}/transfer[/accept|/reject] (Gitea routers/api/v1/repo/transfer.go).
import * as transferService from '../../../services/repo/transfer.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository } from '../../convert/repo.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { TransferRepoOption } from '../../structs/transfer.ts';

export const transferRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/transfer',
    operationId: 'repoTransfer',
    summary: 'Transfer a repo ownership',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: TransferRepoOption,
    success: { status: 202, schema: 'Repository', description: 'transferred at once' },
    also: [{ status: 201, schema: 'Repository', description: 'waiting for the recipient to accept' }],
    errors: [401, 403, 404, 409, 422],
    handler: async ({ cx, params, body, reply }) => {
      const result = await transferService.startTransfer(cx, repoRef(params), { newOwner: body.new_owner, teamIds: body.team_ids });
      return reply
        .code(result.pending ? 201 : 202)
        .send(toApiRepository(result.repo.repo, result.repo.repo.owner, result.repo.perm, convertOptions(cx)));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/transfer/accept',
    operationId: 'acceptRepoTransfer',
    summary: 'Accept a repo transfer',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 202, schema: 'Repository' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const r = await transferService.acceptTransfer(cx, repoRef(params));
      return toApiRepository(r.repo, r.repo.owner, r.perm, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/transfer/reject',
    operationId: 'rejectRepoTransfer',
    summary: 'Reject a repo transfer',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200, schema: 'Repository' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const r = await transferService.rejectTransfer(cx, repoRef(params));
      return toApiRepository(r.repo, r.repo.owner, r.perm, convertOptions(cx));
    },
  }),
];
