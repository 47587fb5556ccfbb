import type { Models } from '../../db/client.ts';
import { visibleIssueFilter } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { IssueRef } from './issue.ts';
import { RepositoryRef } from './repository.ts';
import { dbId } from './user.ts';

/**
 * A pull request: the PullRequest row (branches, merge state, cached diff stats) with its Issue row (title,
 * body, author, labels …). node(id:) answers only pull requests whose issue the viewer may see. Other
 * features add fields with builder.prismaObjectFields(PullRequestRef, …).
 */
export const PullRequestRef = builder.prismaNode('PullRequest', {
  description: 'A pull request: a proposal to merge a head branch into a base branch.',
  id: { field: 'id' },
  authScopes: { tokenRead: 'issue' },
  findUnique: (id, ctx) => ({ id: dbId(id), issue: visibleIssueFilter(ctx.cx) }) as Models.Prisma.PullRequestWhereUniqueInput,
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id of the pull request (not of its issue).' }),
    number: t.exposeInt('index'),
    baseRefName: t.exposeString('baseBranch'),
    headRefName: t.exposeString('headBranch'),
    merged: t.exposeBoolean('hasMerged'),
    mergedAt: t.expose('mergedAt', { type: 'DateTime', nullable: true }),
    issue: t.relation('issue', { type: IssueRef, description: 'The issue row this pull request shares its number, title and comments with.' }),
    baseRepository: t.relation('baseRepo', { type: RepositoryRef }),
  }),
});
