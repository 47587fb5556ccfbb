// GitHub's Ref: branches (refs/heads/…, their rows) and tags (refs/tags/…, from git), and the Repository fields
// that name them (defaultBranchRef, ref, refs).
import { createContextCache } from '@pothos/core';
import { resolveArrayConnection } from '@pothos/plugin-relay';
import { findRef, refLoaders, refNodeKey, refsByNodeKey } from '../../services/repo/refLoaders.ts';
import { REF_REPO_SELECT, type RefView } from '../../services/repo/refView.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { opt } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { totalOf } from '../totalCount.ts';
import { OrderDirectionEnum, orderInput } from './orderInput.ts';
import { RepositoryRef } from './repository.ts';

/** Per request: the ref loaders (branches through the read policy of branches, tags where the code is readable). */
export const refsOf = createContextCache((ctx: GraphQLContext) => refLoaders(ctx.cx));

export const RefRef = builder.objectRef<RefView>('Ref');

builder.node(RefRef, {
  description: 'A git reference: a branch (refs/heads/…, as last pushed) or a tag (refs/tags/…).',
  // node(id:): a branch by its row id, a tag by `<repository id>:refs/tags/<name>`; absent without code read access.
  ...filteredBy('branchReadWhere'),
  id: { resolve: refNodeKey },
  loadMany: (keys, ctx) => refsByNodeKey(ctx.cx, refsOf(ctx), keys),
  // plugin-relay brands loaded nodes only once their whole batch is in, and nodes(ids:) may meanwhile be handed a ref
  // node(id:) is still loading (its request cache): Node's resolveType then falls back to this.
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'prefix' in v && 'branchId' in v,
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The short name (`main`, `v1.0`).' }),
    prefix: t.exposeString('prefix', { description: '`refs/heads/` or `refs/tags/`.' }),
    targetOid: t.field({
      type: 'GitObjectID',
      description: "The commit the ref resolves to (an annotated tag's commit, not its tag object).",
      resolve: (r) => r.commit,
    }),
    commitMessage: t.exposeString('commitMessage', { description: 'The message of that commit.' }),
    committedDate: t.field({ type: 'DateTime', description: 'The committer date of that commit.', resolve: (r) => r.commitDate }),
  }),
});
tokenReadScope(RefRef, 'repository');

const RefOrderInput = orderInput('RefOrder', ['ALPHABETICAL', 'TAG_COMMIT_DATE'] as const, 'ref connections');

builder.prismaObjectFields(RepositoryRef, (t) => ({
  defaultBranchRef: t.field({
    type: RefRef,
    nullable: true,
    description: 'The default branch; null without code read access (as GET …/branches/{branch}).',
    ...filteredBy('branchReadWhere'),
    select: { id: true, defaultBranch: true },
    resolve: (r, _a, ctx) => refsOf(ctx).branches.load({ repoId: r.id, name: r.defaultBranch }),
  }),
  ref: t.field({
    type: RefRef,
    nullable: true,
    args: {
      qualifiedName: t.arg.string({
        required: true,
        description: '`refs/heads/<name>`, `refs/tags/<name>`, or a short name (the branch of that name, else the tag).',
      }),
    },
    description: 'A branch or tag by its fully qualified or short name; null when absent or without code read access.',
    ...filteredBy('branchReadWhere'),
    select: REF_REPO_SELECT,
    resolve: (r, { qualifiedName }, ctx) => findRef(refsOf(ctx), r, qualifiedName),
  }),
  refs: t.connection(
    {
      type: RefRef,
      nullable: true,
      description:
        'Branches (`refPrefix: "refs/heads/"`) or tags (`"refs/tags/"`), by name unless `orderBy` says otherwise; empty for another prefix and without code read access (as GET …/branches and …/tags).',
      args: {
        refPrefix: t.arg.string({ required: true, description: 'A ref name prefix: `refs/heads/` or `refs/tags/`.' }),
        query: t.arg.string({ description: 'Keeps the refs whose name contains it (case-insensitive).' }),
        orderBy: t.arg({ type: RefOrderInput, description: 'Ordering options for refs returned from the connection.' }),
        direction: t.arg({ type: OrderDirectionEnum, description: 'DEPRECATED: use orderBy. The ordering direction.' }),
      },
      ...filteredBy('branchReadWhere'),
      select: REF_REPO_SELECT,
      resolve: async (r, args, ctx) => {
        const query = opt(args.query);
        const all = await refsOf(ctx).lists.load({
          repo: r,
          refPrefix: args.refPrefix,
          options: {
            ...(query ? { query } : {}),
            order: args.orderBy?.field ?? 'ALPHABETICAL',
            direction: args.orderBy?.direction ?? args.direction ?? 'ASC',
          },
        });
        const conn = resolveArrayConnection({ args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE }, all);
        // An empty page has no cursors (as GitHub), where plugin-relay's array connection gives offset -1.
        const pageInfo = conn.edges.length ? conn.pageInfo : { ...conn.pageInfo, startCursor: null, endCursor: null };
        return { ...conn, pageInfo, total: all.length };
      },
    },
    { name: 'RefConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'RefEdge' },
  ),
}));
