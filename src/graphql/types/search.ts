// GitHub's Query.search: issues and pull requests, repositories, users and organizations, found with GitHub's
// search syntax (services/issue/search.ts, repo/search.ts, user/search.ts, each through its read policy).
import { brandWithType, getTypeBrand } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';
import type { Models } from '../../db/client.ts';
import { accountSearch } from '../../services/org/accountSearch.ts';
import { issueSearch } from '../../services/pull/search.ts';
import { repositorySearch } from '../../services/repo/search.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy } from '../policy.ts';
import { IssueRef } from './issue.ts';
import { OrganizationRef } from './organization.ts';
import { PullRequestRef } from './pullRequest.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';

const SearchTypeEnum = builder.enumType('SearchType', {
  description: 'What a search looks for.',
  values: {
    DISCUSSION: { description: 'Discussions: there are none here, so nothing is found.' },
    ISSUE: { description: 'Issues and pull requests.' },
    REPOSITORY: { description: 'Repositories.' },
    USER: { description: 'Users and organizations.' },
  } as const,
});
type SearchType = 'DISCUSSION' | 'ISSUE' | 'REPOSITORY' | 'USER';

type Item = Models.Issue | Models.PullRequest | Models.Repository | Models.User;

const SearchResultItemUnion = builder.unionType('SearchResultItem', {
  description: 'Something a search found.',
  types: [IssueRef, PullRequestRef, RepositoryRef, UserRef, OrganizationRef],
  // Every item is branded with its type when it is loaded (rows of one model stand for two types), and the brand
  // decides before this is asked.
  resolveType: (item) => {
    throw new Error(`unbranded search result ${JSON.stringify(getTypeBrand(item))}`);
  },
});

/** What a search counted, by kind: only the kind searched for is counted (as GitHub). */
interface Counted {
  type: SearchType;
  count: () => Promise<number>;
}

const countOf = (conn: object, type: SearchType): Promise<number> | number => {
  const c = conn as Partial<Counted>;
  return c.type === type && c.count ? c.count() : 0;
};

/** The rows' query for the items of `typeName` a search selects (under `nodes` and `edges { node }`). */
function itemQuery(ctx: GraphQLContext, info: GraphQLResolveInfo, typeName: string): object {
  return queryFromInfo({ context: ctx, info, typeName, paths: [['nodes'], ['edges', 'node']] });
}

type ItemRef = typeof IssueRef | typeof PullRequestRef | typeof RepositoryRef | typeof UserRef | typeof OrganizationRef;

/** `rows` in the order of `ids`, branded with their type. */
function inOrder<T extends { id: number }>(ids: readonly number[], rows: readonly T[], ref: ItemRef): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    brandWithType(row, ref);
    return [row];
  });
}

/** A window of issues and pull requests. */
async function issueItems(ctx: GraphQLContext, info: GraphQLResolveInfo, query: string, skip: number, take: number): Promise<Item[]> {
  const { where, orderBy } = issueSearch(ctx.cx, query);
  const page = await ctx.cx.db.issue.findMany({ where, orderBy, skip, take, select: { id: true, isPull: true } });
  const issueIds = page.filter((i) => !i.isPull).map((i) => i.id);
  const pullIssueIds = page.filter((i) => i.isPull).map((i) => i.id);
  const [issues, pulls] = await Promise.all([
    issueIds.length ? ctx.cx.db.issue.findMany({ ...itemQuery(ctx, info, 'Issue'), where: { id: { in: issueIds } } }) : [],
    pullIssueIds.length
      ? ctx.cx.db.pullRequest.findMany({ ...itemQuery(ctx, info, 'PullRequest'), where: { issueId: { in: pullIssueIds } } })
      : [],
  ]);
  const issueById = new Map(inOrder(issueIds, issues, IssueRef).map((i) => [i.id, i]));
  const pullByIssue = new Map(pulls.map((p) => [p.issueId, p]));
  return page.flatMap((row): Item[] => {
    const pull = row.isPull ? pullByIssue.get(row.id) : undefined;
    if (pull) brandWithType(pull, PullRequestRef);
    const item = row.isPull ? pull : issueById.get(row.id);
    return item ? [item] : [];
  });
}

/** A window of repositories. */
async function repositoryItems(ctx: GraphQLContext, info: GraphQLResolveInfo, query: string, skip: number, take: number): Promise<Item[]> {
  const { where, orderBy } = repositorySearch(ctx.cx, query);
  const rows = await ctx.cx.db.repository.findMany({ ...itemQuery(ctx, info, 'Repository'), where, orderBy, skip, take });
  return inOrder(
    rows.map((r) => r.id),
    rows,
    RepositoryRef,
  );
}

/** A window of users and organizations. */
async function userItems(ctx: GraphQLContext, info: GraphQLResolveInfo, query: string, skip: number, take: number): Promise<Item[]> {
  const { where, orderBy } = accountSearch(ctx.cx, query);
  const page = await ctx.cx.db.user.findMany({ where, orderBy, skip, take, select: { id: true, type: true } });
  const userIds = page.filter((u) => u.type !== 'ORGANIZATION').map((u) => u.id);
  const orgIds = page.filter((u) => u.type === 'ORGANIZATION').map((u) => u.id);
  const [users, orgs] = await Promise.all([
    userIds.length ? ctx.cx.db.user.findMany({ ...itemQuery(ctx, info, 'User'), where: { id: { in: userIds } } }) : [],
    orgIds.length ? ctx.cx.db.user.findMany({ ...itemQuery(ctx, info, 'Organization'), where: { id: { in: orgIds } } }) : [],
  ]);
  const found = new Map([...inOrder(userIds, users, UserRef), ...inOrder(orgIds, orgs, OrganizationRef)].map((u) => [u.id, u]));
  return page.flatMap((u) => found.get(u.id) ?? []);
}

/** How many items a search finds (only counted when asked). */
function countFor(ctx: GraphQLContext, type: SearchType, query: string): () => Promise<number> {
  switch (type) {
    case 'ISSUE':
      return () => ctx.cx.db.issue.count({ where: issueSearch(ctx.cx, query).where });
    case 'REPOSITORY':
      return () => ctx.cx.db.repository.count({ where: repositorySearch(ctx.cx, query).where });
    case 'USER':
      return () => ctx.cx.db.user.count({ where: accountSearch(ctx.cx, query).where });
    default:
      return () => Promise.resolve(0);
  }
}

builder.queryFields((t) => ({
  search: t.connection(
    {
      type: SearchResultItemUnion,
      description:
        "Issues and pull requests, repositories, or users and organizations matching a query in GitHub's search syntax (see the SearchType values; issues: repo:, org:, user:, is:, type:, state:, author:, assignee:, mentions:, commenter:, involves:, review-requested:, reviewed-by:, label:, milestone:, no:, base:, head:, draft:, archived:, in:, sort:; `@me` is the viewer). A GitHub qualifier not supported here is an INVALID_ARGUMENT error naming it. Only what the viewer may read is found or counted.",
      args: {
        query: t.arg.string({ required: true, description: "The search string, in GitHub's search syntax." }),
        type: t.arg({ type: SearchTypeEnum, required: true, description: 'The kind of items to search for.' }),
      },
      ...checkedBy('issueSearch / repositorySearch / accountSearch (issueReadWhere; repoReadWhere; userReadWhere and orgReadWhere)'),
      resolve: async (_root, args, ctx, info) => {
        const type = args.type as SearchType;
        // Parsed before anything is read, so a bad query fails whatever is selected.
        const count = countFor(ctx, type, args.query);
        if (type === 'ISSUE') issueSearch(ctx.cx, args.query);
        else if (type === 'REPOSITORY') repositorySearch(ctx.cx, args.query);
        else if (type === 'USER') accountSearch(ctx.cx, args.query);
        const conn = await resolveOffsetConnection(
          { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
          ({ offset, limit }): Promise<Item[]> | Item[] => {
            if (type === 'ISSUE') return issueItems(ctx, info, args.query, offset, limit);
            if (type === 'REPOSITORY') return repositoryItems(ctx, info, args.query, offset, limit);
            if (type === 'USER') return userItems(ctx, info, args.query, offset, limit);
            return [];
          },
        );
        return { ...conn, type, count };
      },
    },
    {
      name: 'SearchResultItemConnection',
      fields: (c) => ({
        issueCount: c.int({ description: 'Issues and pull requests found (ISSUE searches).', resolve: (conn) => countOf(conn, 'ISSUE') }),
        repositoryCount: c.int({
          description: 'Repositories found (REPOSITORY searches).',
          resolve: (conn) => countOf(conn, 'REPOSITORY'),
        }),
        userCount: c.int({ description: 'Users and organizations found (USER searches).', resolve: (conn) => countOf(conn, 'USER') }),
        discussionCount: c.int({ description: 'Always 0: there are no discussions here.', resolve: () => 0 }),
        codeCount: c.int({ description: 'Always 0: code is not searched here.', resolve: () => 0 }),
        wikiCount: c.int({ description: 'Always 0: wikis are not searched here.', resolve: () => 0 }),
      }),
    },
    { name: 'SearchResultItemEdge' },
  ),
}));
