import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import * as dependencyService from '../../services/issue/dependency.ts';
import * as dependencyRead from '../../services/issue/dependencyRead.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { requireDbIdOf } from '../ids.ts';
import { bothNodePaths, withIssueScalars } from '../selection.ts';
import type { GraphQLContext } from '../context.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { checkedBy, filteredBy } from '../policy.ts';
import { IssueRef } from './issue.ts';

/** Dependency rows whose other end (the blocker, or the blocked issue) the viewer may read. */
const visibleEnd = (side: 'dependency' | 'issue', ctx: GraphQLContext): Models.Prisma.IssueDependencyWhereInput => ({
  [side]: issueReadWhere(ctx.cx),
});

const blockers = prismaConnectionHelpers(builder, 'IssueDependency', {
  cursor: 'id',
  select: (nodeSelection) => ({ dependency: withIssueScalars(nodeSelection(true)) }),
  query: (_args, ctx) => ({ where: visibleEnd('dependency', ctx), orderBy: { id: 'desc' as const } }),
  resolveNode: (row) => row.dependency,
});

const blocked = prismaConnectionHelpers(builder, 'IssueDependency', {
  cursor: 'id',
  select: (nodeSelection) => ({ issue: withIssueScalars(nodeSelection(true)) }),
  query: (_args, ctx) => ({ where: visibleEnd('issue', ctx), orderBy: { id: 'desc' as const } }),
  resolveNode: (row) => row.issue,
});

/** GitHub's IssueDependenciesSummary: open and total counts of blockers and blocked issues the viewer may see. */
const IssueDependenciesSummaryRef = builder.objectRef<dependencyRead.DependencySummary>('IssueDependenciesSummary').implement({
  description: "Counts of an issue's dependencies (only issues the viewer may see).",
  fields: (t) => ({
    blockedBy: t.exposeInt('blockedBy', { description: 'Open issues blocking this one.' }),
    blocking: t.exposeInt('blocking', { description: 'Open issues this one blocks.' }),
    totalBlockedBy: t.exposeInt('totalBlockedBy', { description: 'Issues blocking this one, open or closed.' }),
    totalBlocking: t.exposeInt('totalBlocking', { description: 'Issues this one blocks, open or closed.' }),
  }),
});

builder.prismaObjectFields(IssueRef, (t) => ({
  blockedBy: t.connection(
    {
      type: IssueRef,
      description: 'Issues that block this one (it depends on them), most recently added first; only issues the viewer may see.',
      ...filteredBy('issueReadWhere'),
      select: (args, ctx, nested) => ({
        dependencies: blockers.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { dependencies: { where: visibleEnd('dependency', ctx) } } },
      }),
      resolve: (i, args, ctx) => withTotal(blockers.resolve(i.dependencies, args, ctx), i._count.dependencies),
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
  blocking: t.connection(
    {
      type: IssueRef,
      description: 'Issues this one blocks (they depend on it), most recently added first; only issues the viewer may see.',
      ...filteredBy('issueReadWhere'),
      select: (args, ctx, nested) => ({
        dependents: blocked.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { dependents: { where: visibleEnd('issue', ctx) } } },
      }),
      resolve: (i, args, ctx) => withTotal(blocked.resolve(i.dependents, args, ctx), i._count.dependents),
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
  issueDependenciesSummary: t.loadable({
    type: IssueDependenciesSummaryRef,
    description: "Counts of this issue's blockers and of the issues it blocks (only issues the viewer may see).",
    ...checkedBy('summarizeIssueDependencies'),
    load: async (ids: number[], ctx) => {
      const byId = await dependencyRead.summarizeIssueDependencies(ctx.cx, ids);
      return ids.map((id) => byId.get(id) ?? { blockedBy: 0, blocking: 0, totalBlockedBy: 0, totalBlocking: 0 });
    },
    resolve: (i) => i.id,
  }),
}));

/** The database id of an Issue global id (another type's id names no issue). */
function issueId(id: { typename: string; id: string }): number {
  return requireDbIdOf(id, 'Issue', 'issue does not exist');
}

for (const [name, verb] of [
  ['addBlockedBy', 'add'],
  ['removeBlockedBy', 'remove'],
] as const) {
  builder.relayMutationField(
    name,
    {
      inputFields: (t) => ({
        issueId: t.globalID({ required: true, description: 'The issue that is blocked.' }),
        blockingIssueId: t.globalID({ required: true, description: 'The issue that blocks it.' }),
      }),
    },
    {
      description:
        verb === 'add'
          ? 'Mark an issue as blocked by another (as POST /api/v1/repos/{o}/{r}/issues/{issue}/dependencies): needs write access to the blocked issue and read access to the blocking one; duplicates are AlreadyExistsError, cycles ConflictError.'
          : 'Remove a blocked-by relation (as DELETE /api/v1/repos/{o}/{r}/issues/{issue}/dependencies).',
      ...writeScope('issue'),
      resolve: async (_root, { input }, ctx) => {
        const ids = { issueId: issueId(input.issueId), blockingIssueId: issueId(input.blockingIssueId) };
        return verb === 'add' ? dependencyService.addBlockedBy(ctx.cx, ids) : dependencyService.removeBlockedBy(ctx.cx, ids);
      },
    },
    {
      outputFields: (t) => ({
        issue: t.field({ type: IssueRef, description: 'The blocked issue.', resolve: (p) => p.issue }),
        blockingIssue: t.field({ type: IssueRef, description: 'The blocking issue.', resolve: (p) => p.blockingIssue }),
      }),
    },
  );
}
