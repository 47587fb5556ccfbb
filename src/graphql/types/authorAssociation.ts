// GitHub's CommentAuthorAssociation, for every authored thing of a repository (reviews, comments).
import { createContextCache } from '@pothos/core';
import { authorAssociationLoader, type AuthorAssociation } from '../../services/issue/authorAssociation.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';

export const CommentAuthorAssociationEnum = builder.enumType('CommentAuthorAssociation', {
  description: "A comment author's association with the repository.",
  values: {
    COLLABORATOR: { description: 'A collaborator of the repository (as the viewer may list its collaborators).' },
    CONTRIBUTOR: { description: 'The author of a pull request merged into the repository.' },
    FIRST_TIMER: { description: 'Never returned: Forgegraph does not tell first-timers apart.' },
    FIRST_TIME_CONTRIBUTOR: { description: 'Never returned: Forgegraph does not tell first-time contributors apart.' },
    MANNEQUIN: { description: 'Never returned: there are no mannequins here.' },
    MEMBER: { description: 'A member of the organization owning the repository (as the viewer may list its members).' },
    NONE: { description: 'No association (also for deleted authors).' },
    OWNER: { description: 'The owner of the repository.' },
  } as const,
});

const associations = createContextCache((ctx: GraphQLContext) => authorAssociationLoader(ctx.cx));

/** The association of the author `userId` (null for a deleted one) with the repository `repoId`. */
export function authorAssociationOf(
  ctx: GraphQLContext,
  repoId: number,
  userId: number | null,
): Promise<AuthorAssociation> | AuthorAssociation {
  return userId === null ? 'NONE' : associations(ctx).load({ repoId, userId });
}
