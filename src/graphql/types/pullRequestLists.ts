// A repository's pull requests in the graph: Repository.pullRequests (filtered, ordered, paged) and pullRequest(number:).
import type { Models } from '../../db/client.ts';
import { pullReadWhere } from '../../services/pull/visibility.ts';
import { builder } from '../builder.ts';
import { filteredBy } from '../policy.ts';
import { IssueOrderInput, issueOrderBy, ISSUE_ORDER_DEFAULT } from './issue.ts';
import { PullRequestRef, PullRequestStateEnum } from './pullRequest.ts';
import { RepositoryRef } from './repository.ts';

/** Pull request states as where clauses (GitHub: OPEN, CLOSED = closed unmerged, MERGED). */
function pullStatesWhere(states: readonly ('OPEN' | 'CLOSED' | 'MERGED')[] | null | undefined): Models.Prisma.PullRequestWhereInput {
  const set = new Set(states ?? []);
  if (!set.size || set.size === 3) return {};
  const or: Models.Prisma.PullRequestWhereInput[] = [];
  if (set.has('OPEN')) or.push({ issue: { isClosed: false } });
  if (set.has('CLOSED')) or.push({ hasMerged: false, issue: { isClosed: true } });
  if (set.has('MERGED')) or.push({ hasMerged: true });
  return { OR: or };
}

builder.prismaObjectFields(RepositoryRef, (t) => ({
  pullRequests: t.relatedConnection(
    'basePullRequests',
    {
      cursor: 'id',
      description:
        'Pull requests into this repository, newest first unless `orderBy` says otherwise; empty when the viewer cannot read the pull requests unit.',
      totalCount: true,
      ...filteredBy('pullReadWhere'),
      args: {
        states: t.arg({ type: [PullRequestStateEnum], required: false }),
        baseRefName: t.arg.string({ description: 'Only pull requests into this branch.' }),
        headRefName: t.arg.string({ description: 'Only pull requests from this branch.' }),
        labels: t.arg.stringList({ description: 'Only pull requests carrying every one of these label names.' }),
        orderBy: t.arg({ type: IssueOrderInput, defaultValue: ISSUE_ORDER_DEFAULT }),
      },
      query: (args, ctx) => ({
        where: {
          ...(args.baseRefName != null ? { baseBranch: args.baseRefName } : {}),
          ...(args.headRefName != null ? { headBranch: args.headRefName } : {}),
          AND: [
            pullReadWhere(ctx.cx),
            pullStatesWhere(args.states),
            ...(args.labels ?? []).map((name) => ({ issue: { labels: { some: { label: { name } } } } })),
          ],
        },
        orderBy: issueOrderBy(args.orderBy).map((o) => ({ issue: o })),
      }),
    },
    { name: 'PullRequestConnection' },
    { name: 'PullRequestEdge' },
  ),
  pullRequest: t.field({
    type: PullRequestRef,
    nullable: true,
    description: 'A pull request by number (null for issues and when the viewer cannot read the pull requests unit).',
    ...filteredBy('pullReadWhere'),
    args: { number: t.arg.int({ required: true }) },
    select: (args, ctx, nested) => ({
      basePullRequests: {
        where: { AND: [{ index: args.number }, pullReadWhere(ctx.cx)] },
        take: 1,
        ...nested(true),
      },
    }),
    resolve: (r) => r.basePullRequests[0] ?? null,
  }),
}));
