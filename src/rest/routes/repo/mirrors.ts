import * as mirrorService from '../../../services/migration/mirrorSync.ts';
import * as pushMirrorService from '../../../services/migration/pushMirror.ts';
import { toApiPushMirror } from '../../convert/pushMirror.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CreatePushMirrorOption } from '../../structs/migration.ts';

const NAME = { name: { schema: { type: 'string' as const }, description: 'remote name of push mirror' } };

/** Pull mirror sync and push mirrors (Gitea routers/api/v1/repo/mirror.go). */
export const mirrorRoutes: readonly RouteDef[] = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/mirror-sync',
    operationId: 'repoMirrorSync',
    summary: 'Sync a mirrored repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200 },
    errors: [400, 403, 404],
    handler: async ({ cx, params }) => {
      await mirrorService.requestMirrorSync(cx, repoRef(params));
    },
  }),
  defineList({
    path: '/repos/{owner}/{repo}/push_mirrors',
    operationId: 'repoListPushMirrors',
    summary: 'Get all push mirrors of the repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    headers: 'link',
    schema: '[PushMirror]',
    errors: [400, 403, 404],
    load: ({ cx, params, page }) => pushMirrorService.listPushMirrors(cx, repoRef(params), page),
    convert: (result) => result.items.map(toApiPushMirror),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/push_mirrors',
    operationId: 'repoAddPushMirror',
    summary: 'add a push mirror to the repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreatePushMirrorOption,
    success: { status: 200, schema: 'PushMirror' },
    errors: [400, 403, 404, 422],
    handler: async ({ cx, params, body }) =>
      toApiPushMirror(
        await pushMirrorService.createPushMirror(cx, repoRef(params), {
          remoteAddress: body.remote_address ?? '',
          remoteUsername: body.remote_username ?? undefined,
          remotePassword: body.remote_password ?? undefined,
          interval: body.interval ?? undefined,
          syncOnCommit: body.sync_on_commit ?? undefined,
        }),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/push_mirrors-sync',
    operationId: 'repoPushMirrorSync',
    summary: 'Sync all push mirrored repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200 },
    errors: [400, 403, 404],
    handler: async ({ cx, params }) => {
      await pushMirrorService.syncPushMirrors(cx, repoRef(params));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/push_mirrors/{name}',
    operationId: 'repoGetPushMirrorByRemoteName',
    summary: 'Get push mirror of the repository by remoteName',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: NAME,
    success: { status: 200, schema: 'PushMirror' },
    errors: [400, 403, 404],
    handler: async ({ cx, params }) => toApiPushMirror(await pushMirrorService.getPushMirror(cx, repoRef(params), params.name ?? '')),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/push_mirrors/{name}',
    operationId: 'repoDeletePushMirror',
    summary: 'deletes a push mirror from a repository by remoteName',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: NAME,
    success: { status: 204 },
    errors: [400, 404],
    handler: async ({ cx, params }) => {
      await pushMirrorService.deletePushMirror(cx, repoRef(params), params.name ?? '');
    },
  }),
];
