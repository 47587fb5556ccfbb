import * as deployKeyService from '../../../services/repo/deployKey.ts';
import { toApiDeployKey, toApiDeployKeyList } from '../../convert/deployKey.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { idParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateKeyOption, ListDeployKeysQuery } from '../../structs/deployKey.ts';

const KEY_ID = { id: idOf('key') };

/** /repos/{owner}/{repo}/keys: deploy keys (repository admins; Gitea's `/keys` group has reqToken + reqAdmin). */
export const deployKeyRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/keys',
    operationId: 'repoListKeys',
    summary: "List a repository's keys",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ListDeployKeysQuery,
    // Gitea sets X-Total-Count but no Link header on this list.
    headers: 'count',
    schema: '[DeployKey]',
    errors: [401, 403, 404],
    load: ({ cx, params, query, page }) =>
      deployKeyService.listDeployKeys(cx, repoRef(params), { keyId: query.key_id, fingerprint: query.fingerprint }, page),
    convert: (result, { cx }) => toApiDeployKeyList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/keys',
    operationId: 'repoCreateKey',
    summary: 'Add a key to a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: CreateKeyOption,
    success: { status: 201, schema: 'DeployKey' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) =>
      toApiDeployKey(
        await deployKeyService.createDeployKey(cx, repoRef(params), {
          title: body.title,
          key: body.key,
          readOnly: body.read_only ?? false,
        }),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/keys/{id}',
    operationId: 'repoGetKey',
    summary: "Get a repository's key by id",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: KEY_ID,
    success: { status: 200, schema: 'DeployKey' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiDeployKey(await deployKeyService.getDeployKey(cx, repoRef(params), idParam(params)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/keys/{id}',
    operationId: 'repoDeleteKey',
    summary: 'Delete a key from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: KEY_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await deployKeyService.deleteDeployKey(cx, repoRef(params), idParam(params));
    },
  }),
];
