import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as deployKeyService from '../../../services/repo/deployKey.ts';
import { toApiDeployKey, toApiDeployKeyList } from '../../convert/deployKey.ts';
import { convertOptions } from '../../convert/options.ts';
import { listOptions, setTotalCount } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';
import { CreateKeyOption, ListDeployKeysQuery } from '../../structs/deployKey.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** The `{id}` path parameter; anything but a positive integer finds no key (Gitea's PathParamInt64 gives 0). */
const keyId = (params: Record<string, string>): number => (/^\d{1,10}$/.test(params.id ?? '') ? Number(params.id) : 0);

/** /repos/{owner}/{repo}/keys: deploy keys (repository admins; Gitea's `/keys` group has reqToken + reqAdmin). */
export const deployKeyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/keys',
    operationId: 'repoListKeys',
    summary: "List a repository's keys",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ListDeployKeysQuery,
    success: { status: 200, schema: '[DeployKey]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = await deployKeyService.listDeployKeys(
        cx,
        ref(params),
        { keyId: query.key_id, fingerprint: query.fingerprint },
        listOptions(req.query as Record<string, unknown>),
      );
      // Gitea sets X-Total-Count but no Link header on this list.
      setTotalCount(reply, page.total);
      return toApiDeployKeyList(page.items, convertOptions(cx));
    },
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
        await deployKeyService.createDeployKey(cx, ref(params), { title: body.title, key: body.key, readOnly: body.read_only ?? false }),
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
    success: { status: 200, schema: 'DeployKey' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiDeployKey(await deployKeyService.getDeployKey(cx, ref(params), keyId(params)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/keys/{id}',
    operationId: 'repoDeleteKey',
    summary: 'Delete a key from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await deployKeyService.deleteDeployKey(cx, ref(params), keyId(params));
    },
  }),
];
