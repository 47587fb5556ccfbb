// Users' SSH keys in the graph: PublicKey (GitHub's name), User.publicKeys, addPublicKey / deletePublicKey, and
// verifySshPublicKey (Gitea's web-only SSH key verification; GitHub has no such mutation).
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import * as keyService from '../../services/user/publicKey.ts';
import { verifyMySshKey } from '../../services/gpg/sshKeyVerify.ts';
import { publicKeyReadWhere } from '../../services/user/visibility.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, requireDbIdOf } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { totalOf } from '../totalCount.ts';

export const PublicKeyRef = builder.prismaNode('PublicKey', {
  description: "A user's SSH public key.",
  id: { field: 'id' },
  ...filteredBy('publicKeyReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [publicKeyReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id (GET /api/v1/user/keys/{id}).' }),
    title: t.exposeString('name'),
    key: t.exposeString('content', { description: 'The normalised public key line.' }),
    fingerprint: t.exposeString('fingerprint', { description: 'SHA256:… as ssh-keygen -lf prints it.' }),
    isReadOnly: t.boolean({ nullable: true, resolve: (k) => k.mode === 'READ' }),
    isVerified: t.exposeBoolean('verified', {
      description: 'Whether its owner proved holding it (verifySshPublicKey): only verified keys vouch for SSH-signed commits.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(PublicKeyRef, 'user');

builder.prismaObjectFields('User', (t) => ({
  publicKeys: t.connection(
    {
      type: PublicKeyRef,
      description: "The user's SSH public keys, oldest first.",
      ...filteredBy('publicKeyReadWhere'),
      resolve: async (user, args, ctx) => {
        let total = 0;
        const conn = await resolveOffsetConnection(
          { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
          async ({ offset, limit }) => {
            const page = await keyService.listKeysOf(ctx.cx, user, { skip: offset, take: limit });
            total = page.total;
            return page.items;
          },
        );
        return { ...conn, total };
      },
    },
    { name: 'PublicKeyConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'PublicKeyEdge' },
  ),
}));

builder.relayMutationField(
  'addPublicKey',
  {
    inputFields: (t) => ({
      title: t.string({ required: true }),
      key: t.string({ required: true, description: 'One OpenSSH public key line.' }),
    }),
  },
  {
    description: "Add an SSH public key to the viewer's account (as POST /api/v1/user/keys).",
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) => ({ key: await keyService.addMyKey(ctx.cx, { title: input.title, key: input.key }) }),
  },
  { outputFields: (t) => ({ publicKey: t.field({ type: PublicKeyRef, resolve: (p) => p.key }) }) },
);

builder.relayMutationField(
  'deletePublicKey',
  { inputFields: (t) => ({ id: t.globalID({ required: true, description: 'The PublicKey.' }) }) },
  {
    description: "Delete one of the viewer's SSH public keys (as DELETE /api/v1/user/keys/{id}).",
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) => {
      await keyService.deleteMyKey(ctx.cx, requireDbIdOf(input.id, 'PublicKey', 'public key does not exist'));
      return { ok: true };
    },
  },
  { outputFields: (t) => ({ deleted: t.boolean({ resolve: (p) => p.ok }) }) },
);

builder.relayMutationField(
  'verifySshPublicKey',
  {
    inputFields: (t) => ({
      fingerprint: t.string({ required: true, description: "The key's fingerprint (`SHA256:…`)." }),
      signature: t.string({
        required: true,
        description:
          'The armored SSH signature of the verification token (GET /api/v1/user/gpg_key_token) in the namespace "gitea": `echo -n TOKEN | ssh-keygen -Y sign -n gitea -f KEY`.',
      }),
    }),
  },
  {
    description:
      "Verify one of the viewer's SSH keys by a signed token (Gitea's settings page action), so it vouches for SSH-signed commits.",
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) => ({ key: await verifyMySshKey(ctx.cx, input.fingerprint, input.signature) }),
  },
  { outputFields: (t) => ({ publicKey: t.field({ type: PublicKeyRef, resolve: (p) => p.key }) }) },
);
