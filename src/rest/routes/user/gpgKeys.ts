// /user/gpg_keys, /users/{username}/gpg_keys, /user/gpg_key_token, /user/gpg_key_verify (Gitea
// routers/api/v1/user/gpg_key.go).
import * as gpgKeyService from '../../../services/gpg/gpgKey.ts';
import { toApiGpgKey } from '../../convert/gpgKey.ts';
import { defineList } from '../../list.ts';
import { idParam } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateGPGKeyOption, VerifyGPGKeyOption } from '../../structs/gpgKey.ts';

const KEY_ID = { id: idOf('key') };

export const gpgKeyRoutes = [
  defineList({
    path: '/user/gpg_keys',
    operationId: 'userCurrentListGPGKeys',
    summary: "List the authenticated user's GPG keys",
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    headers: 'link',
    schema: '[GPGKey]',
    errors: [401, 403],
    load: ({ cx, page }) => gpgKeyService.listMyGpgKeys(cx, page),
    convert: (result) => result.items.map(toApiGpgKey),
  }),
  defineRoute({
    method: 'POST',
    path: '/user/gpg_keys',
    operationId: 'userCurrentPostGPGKey',
    summary: 'Create a GPG key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: CreateGPGKeyOption,
    success: { status: 201, schema: 'GPGKey' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, body }) =>
      toApiGpgKey(await gpgKeyService.addMyGpgKey(cx, { armoredKey: body.armored_public_key, signature: body.armored_signature })),
  }),
  defineRoute({
    method: 'GET',
    path: '/user/gpg_keys/{id}',
    operationId: 'userCurrentGetGPGKey',
    summary: 'Get a GPG key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    params: KEY_ID,
    success: { status: 200, schema: 'GPGKey' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => toApiGpgKey(await gpgKeyService.getMyGpgKey(cx, idParam(params))),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/user/gpg_keys/{id}',
    operationId: 'userCurrentDeleteGPGKey',
    summary: 'Remove a GPG key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    params: KEY_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await gpgKeyService.deleteMyGpgKey(cx, idParam(params));
    },
  }),
  defineList({
    path: '/users/{username}/gpg_keys',
    operationId: 'userListGPGKeys',
    summary: "List the given user's GPG keys",
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    headers: 'link',
    schema: '[GPGKey]',
    errors: [404],
    load: ({ cx, params, page }) => gpgKeyService.listUserGpgKeys(cx, params.username ?? '', page),
    convert: (result) => result.items.map(toApiGpgKey),
  }),
  defineRoute({
    method: 'GET',
    path: '/user/gpg_key_token',
    operationId: 'getVerificationToken',
    summary: 'Get a Token to verify',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 200, contentType: 'text/plain', description: 'the token to sign' },
    errors: [401, 403, 404],
    handler: async ({ cx, reply }) => reply.code(200).type('text/plain;charset=utf-8').send(gpgKeyService.myVerificationToken(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/user/gpg_key_verify',
    operationId: 'userVerifyGPGKey',
    summary: 'Verify a GPG key',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: VerifyGPGKeyOption,
    // Gitea answers 200 here (its documentation says 201).
    success: { status: 200, schema: 'GPGKey' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, body }) =>
      toApiGpgKey(await gpgKeyService.verifyMyGpgKey(cx, { keyId: body.key_id, signature: body.armored_signature })),
  }),
];
