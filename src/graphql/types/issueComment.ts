import type { Models } from '../../db/client.ts';
import { visibleIssueFilter } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { IssueRef } from './issue.ts';
import { dbId, UserRef } from './user.ts';

/**
 * A plain comment (Gitea comment type COMMENT) on an issue or pull request. node(id:) answers only comments
 * of issues the viewer may see. Other features add fields with builder.prismaObjectFields(IssueCommentRef, …).
 */
export const IssueCommentRef = builder.prismaNode('Comment', {
  name: 'IssueComment',
  description: 'A comment on an issue or pull request.',
  id: { field: 'id' },
  authScopes: { tokenRead: 'issue' },
  findUnique: (id, ctx) => ({ id: dbId(id), type: 'COMMENT', issue: visibleIssueFilter(ctx.cx) }) as Models.Prisma.CommentWhereUniqueInput,
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    body: t.exposeString('content'),
    author: t.relation('poster', { type: UserRef, nullable: true, description: 'Null for a deleted (ghost) author.' }),
    issue: t.relation('issue', { type: IssueRef }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
