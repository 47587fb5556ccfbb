// /user/keys and /users/{username}/keys: users' SSH keys (Gitea routers/api/v1/user/key.go).
import * as keyService from '../../../services/user/publicKey.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPublicKey, toApiPublicKeyList, type KeyViewer } from '../../convert/publicKey.ts';
import { defineList } from '../../list.ts';
import { idParam } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateKeyOption } from '../../structs/deployKey.ts';
import { ListPublicKeysQuery } from '../../structs/publicKey.ts';

const KEY_ID = { id: idOf('key') };

/** The viewer and who sees which key's private information, for the converter. */
export function keyViewer(cx: ServiceContext): KeyViewer {
  return { viewer: cx.viewer, showsOwner: (key) => keyService.showsKeyOwner(cx, key) };
}

export const userKeyRoutes = [
  defineList({
    path: '/user/keys',
    operationId: 'userCurrentListKeys',
    summary: "List the authenticated user's public keys",
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    query: ListPublicKeysQuery,
    headers: 'link',
    schema: '[PublicKey]',
    errors: [401, 403],
    load: ({ cx, query, page }) => keyService.listMyKeys(cx, query.fingerprint, page),
    convert: (result, { cx }) => toApiPublicKeyList(result.items, keyViewer(cx), convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/user/keys',
    operationId: 'userCurrentPostKey',
    summary: 'Create a public key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: CreateKeyOption,
    success: { status: 201, schema: 'PublicKey' },
    errors: [401, 403, 422],
    handler: async ({ cx, body }) =>
      toApiPublicKey(await keyService.addMyKey(cx, { title: body.title, key: body.key }), keyViewer(cx), convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/user/keys/{id}',
    operationId: 'userCurrentGetKey',
    summary: 'Get a public key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    params: KEY_ID,
    success: { status: 200, schema: 'PublicKey' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => toApiPublicKey(await keyService.getKey(cx, idParam(params)), keyViewer(cx), convertOptions(cx)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/user/keys/{id}',
    operationId: 'userCurrentDeleteKey',
    summary: 'Delete a public key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    params: KEY_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await keyService.deleteMyKey(cx, idParam(params));
    },
  }),
  defineList({
    path: '/users/{username}/keys',
    operationId: 'userListKeys',
    summary: "List the given user's public keys",
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    query: ListPublicKeysQuery,
    headers: 'link',
    schema: '[PublicKey]',
    errors: [404],
    load: ({ cx, params, query, page }) => keyService.listUserKeys(cx, params.username ?? '', query.fingerprint, page),
    convert: (result, { cx }) => toApiPublicKeyList(result.items, keyViewer(cx), convertOptions(cx)),
  }),
];
