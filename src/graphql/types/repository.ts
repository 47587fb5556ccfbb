import * as teamRepoService from '../../services/org/teamRepo.ts';
import { builder } from '../builder.ts';
import { RepositoryOwnerRef } from './repositoryOwner.ts';
import { dbId } from './user.ts';

/**
 * A repository (minimal for now: identity, flags and owner). `node(id:)` answers null for a repository the
 * viewer may not see, through the same permission loader as every other path.
 */
export const RepositoryRef = builder.prismaNode('Repository', {
  description: 'A git repository owned by a user or an organization.',
  id: { field: 'id' },
  findUnique: (id, ctx) => teamRepoService.visibleRepoWhere(ctx.cx, dbId(id)),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    name: t.exposeString('name'),
    nameWithOwner: t.string({ description: 'owner/name.', resolve: (r) => `${r.ownerName}/${r.name}` }),
    description: t.string({ nullable: true, resolve: (r) => r.description || null }),
    homepageUrl: t.string({ nullable: true, resolve: (r) => r.website || null }),
    url: t.string({ description: 'The web URL.', resolve: (r, _a, ctx) => `${ctx.cx.config.rootUrl}${encodeURIComponent(r.ownerName)}/${encodeURIComponent(r.name)}` }),
    isPrivate: t.exposeBoolean('isPrivate'),
    isArchived: t.exposeBoolean('isArchived'),
    isFork: t.exposeBoolean('isFork'),
    isMirror: t.exposeBoolean('isMirror'),
    isTemplate: t.exposeBoolean('isTemplate'),
    isEmpty: t.exposeBoolean('isEmpty'),
    owner: t.field({ type: RepositoryOwnerRef, select: { owner: true }, resolve: (r) => r.owner }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
  }),
});
