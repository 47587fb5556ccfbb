import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { avatarUrl } from '../../services/user/avatar.ts';
import { builder } from '../builder.ts';

/** GitHub's RepositoryOwner: the interface users and organizations share (one table in our model, as Gitea's). */
export const RepositoryOwnerRef = builder.interfaceRef<Models.User>('RepositoryOwner').implement({
  description: 'An account that can own repositories: a user or an organization.',
  resolveType: (owner) => (owner.type === 'ORGANIZATION' ? 'Organization' : 'User'),
  fields: (t) => ({
    // GitHub's RepositoryOwner has the Node id (gh selects `owner { id login }`); the same id as the User or
    // Organization node's own.
    id: t.id({ resolve: (o) => encodeGlobalID(o.type === 'ORGANIZATION' ? 'Organization' : 'User', o.id) }),
    login: t.exposeString('name'),
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    avatarUrl: t.field({ type: 'URI', resolve: (o, _a, ctx) => avatarUrl(o, ctx.cx.config.rootUrl) }),
    url: t.field({ type: 'URI', description: 'The web URL.', resolve: (o, _a, ctx) => `${ctx.cx.config.rootUrl}${o.name}` }),
  }),
});
