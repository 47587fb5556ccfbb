// GitHub's authorAssociation on issues, pull requests and their comments (`gh issue view` shows it as a badge).
import { createContextCache } from '@pothos/core';
import {
  authorAssociationLoader,
  authorAssociationOf,
  type AuthoredRow,
  type AuthorAssociation,
} from '../../services/issue/authorAssociation.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { IssueRef } from './issue.ts';
import { IssueCommentRef } from './issueComment.ts';
import { PullRequestRef } from './pullRequest.ts';

export const CommentAuthorAssociationEnum = builder.enumType('CommentAuthorAssociation', {
  description: "A comment author's association with the repository.",
  values: {
    OWNER: { value: 'OWNER', description: 'Author is the owner of the repository.' },
    MEMBER: { value: 'MEMBER', description: 'Author is a member of the organization that owns the repository.' },
    COLLABORATOR: { value: 'COLLABORATOR', description: 'Author has been invited to collaborate on the repository.' },
    CONTRIBUTOR: { value: 'CONTRIBUTOR', description: 'Author has previously committed to the repository (never answered here).' },
    FIRST_TIME_CONTRIBUTOR: {
      value: 'FIRST_TIME_CONTRIBUTOR',
      description: 'Author has not previously committed to the repository (never answered here).',
    },
    FIRST_TIMER: { value: 'FIRST_TIMER', description: 'Author has not previously committed to GitHub (never answered here).' },
    MANNEQUIN: { value: 'MANNEQUIN', description: 'Author is a placeholder for an unclaimed user: a migrated item’s original author.' },
    NONE: { value: 'NONE', description: 'Author has no association with the repository.' },
  } as const,
});

const DESCRIPTION =
  "Author's association with the repository: OWNER, MEMBER of the owning organization, COLLABORATOR (each only where the viewer may see that membership or collaboration), MANNEQUIN for migrated items, else NONE.";

/** One loader per request: the authors of a whole page are looked up in one batch. */
const associations = createContextCache((ctx: GraphQLContext) => authorAssociationLoader(ctx.cx));

/** The association of a row's author (issue, pull request, comment or review), batched per request. */
export function associationOf(ctx: GraphQLContext, row: AuthoredRow): AuthorAssociation | Promise<AuthorAssociation> {
  return authorAssociationOf(associations(ctx), row);
}

builder.prismaObjectFields(IssueRef, (t) => ({
  authorAssociation: t.field({
    type: CommentAuthorAssociationEnum,
    description: DESCRIPTION,
    resolve: (i, _a, ctx) =>
      authorAssociationOf(associations(ctx), { issueId: i.id, posterId: i.posterId, originalAuthorId: i.originalAuthorId }),
  }),
}));

builder.prismaObjectFields(IssueCommentRef, (t) => ({
  authorAssociation: t.field({
    type: CommentAuthorAssociationEnum,
    description: DESCRIPTION,
    resolve: (c, _a, ctx) => authorAssociationOf(associations(ctx), c),
  }),
}));

builder.prismaObjectFields(PullRequestRef, (t) => ({
  authorAssociation: t.field({
    type: CommentAuthorAssociationEnum,
    description: DESCRIPTION,
    select: { issue: { select: { posterId: true, originalAuthorId: true } } },
    resolve: (p, _a, ctx) =>
      authorAssociationOf(associations(ctx), {
        issueId: p.issueId,
        posterId: p.issue.posterId,
        originalAuthorId: p.issue.originalAuthorId,
      }),
  }),
}));
