// /admin/users/{username}/keys: site admins add and delete users' SSH keys (Gitea routers/api/v1/admin/user.go).
import * as keyService from '../../../services/user/publicKey.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPublicKey } from '../../convert/publicKey.ts';
import { idParam } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateKeyOption } from '../../structs/deployKey.ts';
import { keyViewer } from '../user/keys.ts';

export const adminKeyRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/users/{username}/keys',
    operationId: 'adminCreatePublicKey',
    summary: 'Add a public key on behalf of a user',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    body: CreateKeyOption,
    success: { status: 201, schema: 'PublicKey' },
    errors: [400, 403, 404, 422],
    handler: async ({ cx, params, body }) =>
      toApiPublicKey(
        await keyService.adminAddKey(cx, params.username ?? '', { title: body.title, key: body.key }),
        keyViewer(cx),
        convertOptions(cx),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/users/{username}/keys/{id}',
    operationId: 'adminDeleteUserPublicKey',
    summary: "Delete a user's public key",
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    params: { id: idOf('key') },
    success: { status: 204 },
    errors: [403, 404],
    handler: async ({ cx, params }) => {
      await keyService.adminDeleteKey(cx, params.username ?? '', idParam(params));
    },
  }),
];
