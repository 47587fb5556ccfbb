// /signing-key.gpg, /signing-key.pub and their repository forms (Gitea routers/api/v1/misc/signing.go): no
// signing key is configured, so each answers Gitea's 404 "no signing key".
import * as signingKeyService from '../../../services/gpg/signingKey.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

const formats = [
  { ext: 'gpg', op: 'getSigningKey', repoOp: 'repoSigningKey', what: 'GPG armored public key' },
  { ext: 'pub', op: 'getSigningKeySSH', repoOp: 'repoSigningKeySSH', what: 'ssh public key' },
] as const;

export const signingKeyRoutes = formats.flatMap((f) => [
  defineRoute({
    method: 'GET',
    path: `/signing-key.${f.ext}`,
    operationId: f.op,
    summary: `Get default signing-key.${f.ext}`,
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    success: { status: 200, contentType: 'text/plain', description: f.what },
    errors: [404],
    handler: async ({ cx, reply }) =>
      reply
        .code(200)
        .type('text/plain;charset=utf-8')
        .send(await signingKeyService.getSigningKey(cx, null)),
  }),
  defineRoute({
    method: 'GET',
    path: `/repos/{owner}/{repo}/signing-key.${f.ext}`,
    operationId: f.repoOp,
    summary: `Get signing-key.${f.ext} for given repository`,
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, contentType: 'text/plain', description: f.what },
    errors: [404],
    handler: async ({ cx, params, reply }) =>
      reply
        .code(200)
        .type('text/plain;charset=utf-8')
        .send(await signingKeyService.getSigningKey(cx, repoRef(params))),
  }),
]);
