import { resolveOffsetConnection } from '@pothos/plugin-relay';
import * as emailService from '../../services/user/email.ts';
import * as tokenService from '../../services/user/token.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { totalOf } from '../totalCount.ts';
import { checkedBy } from '../policy.ts';
import { UserRef } from './user.ts';

export const AccessTokenRef = builder.prismaObject('AccessToken', {
  description: 'A personal access token. The secret is shown only once, in createAccessToken.',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    tokenLastEight: t.exposeString('tokenLastEight'),
    scopes: t.stringList({ resolve: (tok) => tokenService.scopeList(tok) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const UserEmailRef = builder.prismaObject('EmailAddress', {
  name: 'UserEmail',
  description: "One of a user's e-mail addresses.",
  fields: (t) => ({
    email: t.exposeString('email'),
    isPrimary: t.exposeBoolean('isPrimary'),
    isVerified: t.exposeBoolean('isActivated'),
  }),
});

builder.prismaObjectFields('User', (t) => ({
  accessTokens: t.connection(
    {
      type: AccessTokenRef,
      description: "The user's access tokens (the user or a site admin, signed in with a password).",
      ...checkedBy('listUserAccessTokens'),
      resolve: async (user, args, ctx) => {
        let total = 0;
        const conn = await resolveOffsetConnection(
          { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
          async ({ offset, limit }) => {
            const page = await tokenService.listUserAccessTokens(ctx.cx, user, { skip: offset, take: limit });
            total = page.total;
            return page.items;
          },
        );
        return { ...conn, total };
      },
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
  emails: t.field({
    type: [UserEmailRef],
    nullable: true,
    description: "The viewer's own e-mail addresses; null for other users.",
    ...checkedBy('listEmails'),
    resolve: (user, _args, ctx) => (ctx.cx.viewer?.id === user.id ? emailService.listEmails(ctx.cx) : null),
  }),
}));

builder.relayMutationField(
  'createAccessToken',
  {
    inputFields: (t) => ({
      login: t.string({ required: true, description: 'Whose token (yourself, or anyone for a site admin).' }),
      name: t.string({ required: true }),
      scopes: t.stringList({ required: true, description: 'Gitea scopes: all, read:user, write:repository, …' }),
    }),
  },
  {
    description: 'Create a personal access token. Needs password authentication, like POST /api/v1/users/{username}/tokens.',
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) =>
      tokenService.createAccessToken(ctx.cx, { username: input.login, name: input.name, scopes: input.scopes }),
  },
  {
    outputFields: (t) => ({
      accessToken: t.field({ type: AccessTokenRef, resolve: (p) => p.token }),
      token: t.string({ description: 'The secret. Shown only here.', resolve: (p) => p.secret }),
    }),
  },
);

builder.relayMutationField(
  'deleteAccessToken',
  {
    inputFields: (t) => ({
      login: t.string({ required: true }),
      token: t.string({ required: true, description: 'The token id, or else its name.' }),
    }),
  },
  {
    description: 'Delete a personal access token.',
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) => {
      await tokenService.deleteAccessToken(ctx.cx, { username: input.login, token: input.token });
      return { ok: true };
    },
  },
  { outputFields: (t) => ({ deleted: t.boolean({ resolve: (p) => p.ok }) }) },
);

builder.relayMutationField(
  'addEmails',
  { inputFields: (t) => ({ emails: t.stringList({ required: true }) }) },
  {
    description: "Add e-mail addresses to the viewer's account.",
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) => ({ emails: await emailService.addEmails(ctx.cx, input.emails) }),
  },
  { outputFields: (t) => ({ emails: t.field({ type: [UserEmailRef], resolve: (p) => p.emails }) }) },
);

builder.relayMutationField(
  'deleteEmails',
  { inputFields: (t) => ({ emails: t.stringList({ required: true }) }) },
  {
    description: "Remove e-mail addresses from the viewer's account.",
    ...writeScope('user'),
    resolve: async (_root, { input }, ctx) => {
      await emailService.deleteEmails(ctx.cx, input.emails);
      return { viewer: ctx.cx.viewer };
    },
  },
  { outputFields: (t) => ({ user: t.field({ type: UserRef, nullable: true, resolve: (p) => p.viewer }) }) },
);
