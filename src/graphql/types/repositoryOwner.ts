import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { avatarUrl } from '../../services/user/avatar.ts';
import { builder } from '../builder.ts';

type Account = Pick<Models.User, 'id' | 'name' | 'email' | 'avatar' | 'type'>;
const typeNameOf = (a: Pick<Models.User, 'type'>) => (a.type === 'ORGANIZATION' ? 'Organization' : 'User');

/** GitHub's Actor: whoever acts (a user or an organization; one table in our model, as Gitea's). Deleted accounts are null. */
export const ActorRef = builder.interfaceRef<Account>('Actor').implement({
  description: 'An account that can take actions: a user or an organization.',
  resolveType: typeNameOf,
  fields: (t) => ({
    login: t.exposeString('name'),
    avatarUrl: t.field({
      type: 'URI',
      description: 'The avatar image; `size` asks for a square of that many pixels (1 to 2048).',
      args: { size: t.arg.int() },
      resolve: (a, args, ctx) => avatarUrl(a, ctx.cx.config.rootUrl, args.size),
    }),
    resourcePath: t.field({ type: 'URI', description: 'The web path.', resolve: (a) => `/${encodeURIComponent(a.name)}` }),
    url: t.field({
      type: 'URI',
      description: 'The web URL.',
      resolve: (a, _a, ctx) => `${ctx.cx.config.rootUrl}${encodeURIComponent(a.name)}`,
    }),
  }),
});

/**
 * GitHub's RepositoryOwner: the interface users and organizations share (one table in our model, as Gitea's). A
 * Prisma interface, so its `repositories` connection (repository.ts) is planned once for both.
 */
export const RepositoryOwnerRef = builder.prismaInterface('User', {
  variant: 'RepositoryOwner',
  description: 'An account that can own repositories: a user or an organization.',
  resolveType: (o: Models.User) => typeNameOf(o),
  fields: (t) => ({
    // GitHub's RepositoryOwner has the Node id (gh selects `owner { id login }`); the same id as the User or
    // Organization node's own.
    id: t.id({ resolve: (o) => encodeGlobalID(typeNameOf(o), o.id) }),
    login: t.exposeString('name'),
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    avatarUrl: t.field({
      type: 'URI',
      description: 'The avatar image; `size` asks for a square of that many pixels (1 to 2048).',
      args: { size: t.arg.int() },
      resolve: (o, args, ctx) => avatarUrl(o, ctx.cx.config.rootUrl, args.size),
    }),
    resourcePath: t.field({ type: 'URI', description: 'The web path.', resolve: (o) => `/${encodeURIComponent(o.name)}` }),
    url: t.field({
      type: 'URI',
      description: 'The web URL.',
      resolve: (o, _a, ctx) => `${ctx.cx.config.rootUrl}${encodeURIComponent(o.name)}`,
    }),
  }),
});
