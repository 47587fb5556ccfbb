import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import type { DiffFile } from '../../git/compare.ts';
import { NotFoundError } from '../../errors.ts';
import { pullCommitsByKey, pullGitLoaders, pullGitRange, pullRefOids } from '../../services/pull/gitLoaders.ts';
import { isWorkInProgress } from '../../services/issue/wip.ts';
import { pullReadWhere } from '../../services/pull/visibility.ts';
import { readableRepoIds } from '../../services/repo/visibility.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId } from '../ids.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { bothNodePaths, withLabelScalars, withUserScalars } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { CommitRef, type CommitView } from './gitObject.ts';
import { IssueRef, MilestoneRef } from './issue.ts';
import { commentOrder, IssueCommentConnectionRef, IssueCommentOrderInput, IssueCommentRef } from './issueComment.ts';
import { carriedLabelsOrderBy, LabelConnectionRef, LabelOrderInput, LabelRef } from './label.ts';
import { RefRef, refsOf } from './ref.ts';
import { RepositoryRef } from './repository.ts';
import { ActorRef, RepositoryOwnerRef } from './repositoryOwner.ts';
import { UserConnectionRef, UserRef } from './user.ts';
import { AssignableRef, ClosableRef, LabelableRef, LockableRef, ReactableRef, SubscribableRef } from './githubInterfaces.ts';

/**
 * A pull request: the PullRequest row (branches, merge state, cached diff stats) with its Issue row (title,
 * body, author, labels …). node(id:) answers only pull requests whose issue the viewer may see. Other
 * features add fields with builder.prismaObjectFields(PullRequestRef, …).
 */
export const PullRequestRef = builder.prismaNode('PullRequest', {
  description: 'A pull request: a proposal to merge a head branch into a base branch.',
  interfaces: [AssignableRef, ClosableRef, LabelableRef, LockableRef, ReactableRef, SubscribableRef],
  id: { field: 'id' },
  ...filteredBy('pullReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [pullReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id of the pull request (not of its issue).' }),
    number: t.exposeInt('index'),
    baseRefName: t.exposeString('baseBranch'),
    headRefName: t.exposeString('headBranch'),
    merged: t.exposeBoolean('hasMerged'),
    maintainerCanModify: t.exposeBoolean('allowMaintainerEdit', {
      description: 'Whether maintainers of the base repository may push to the head branch.',
    }),
    mergedAt: t.expose('mergedAt', { type: 'DateTime', nullable: true }),
    issue: t.relation('issue', {
      type: IssueRef,
      description: 'The issue row this pull request shares its number, title and comments with.',
      ...inherits('the issue row of a readable pull request is readable (pullReadWhere is its policy)'),
    }),
    baseRepository: t.relation('baseRepo', {
      type: RepositoryRef,
      ...inherits('a readable pull request implies a readable base repository'),
    }),
  }),
});
tokenReadScope(PullRequestRef, 'issue');

export const PullRequestStateEnum = builder.enumType('PullRequestState', {
  description: 'The possible states of a pull request.',
  values: { OPEN: { value: 'OPEN' }, CLOSED: { value: 'CLOSED' }, MERGED: { value: 'MERGED' } } as const,
});

const MergeableStateEnum = builder.enumType('MergeableState', {
  description: 'Whether a pull request can be merged (from the cached trial merge).',
  values: {
    MERGEABLE: { value: 'MERGEABLE', description: 'The pull request can be merged.' },
    CONFLICTING: { value: 'CONFLICTING', description: 'The pull request cannot be merged due to merge conflicts.' },
    UNKNOWN: { value: 'UNKNOWN', description: 'The mergeability of the pull request is still being calculated (or failed).' },
  } as const,
});

const PatchStatusEnum = builder.enumType('PatchStatus', {
  description: 'The possible types of patch statuses.',
  values: {
    ADDED: { value: 'ADDED' },
    DELETED: { value: 'DELETED' },
    RENAMED: { value: 'RENAMED' },
    COPIED: { value: 'COPIED' },
    MODIFIED: { value: 'MODIFIED' },
    CHANGED: { value: 'CHANGED' },
  } as const,
});

const PATCH_STATUS: Record<DiffFile['status'], 'ADDED' | 'DELETED' | 'RENAMED' | 'COPIED' | 'MODIFIED'> = {
  added: 'ADDED',
  deleted: 'DELETED',
  renamed: 'RENAMED',
  copied: 'COPIED',
  modified: 'MODIFIED',
};

const PullRequestChangedFileRef = builder.objectRef<DiffFile>('PullRequestChangedFile').implement({
  description: 'A file changed in a pull request (against the merge base).',
  fields: (t) => ({
    path: t.exposeString('filename'),
    previousPath: t.string({ nullable: true, description: 'The path before a rename or copy.', resolve: (f) => f.previousFilename }),
    additions: t.exposeInt('additions'),
    deletions: t.exposeInt('deletions'),
    changeType: t.field({ type: PatchStatusEnum, resolve: (f) => PATCH_STATUS[f.status] }),
  }),
});

/** A commit of a pull request: the commit (read from the base repository) and the pull request's id and number. */
type PullCommitView = CommitView & { pull: Pick<Models.PullRequest, 'id' | 'index'> };

const PullRequestCommitRef = builder.objectRef<PullCommitView>('PullRequestCommit');
builder.node(PullRequestCommitRef, {
  description: 'A commit in a pull request.',
  // node(id:) `<pull request id>:<oid>`: the pull request through its read policy, the commit among its commits
  // (the base repository's code must be readable).
  ...filteredBy('pullReadWhere'),
  id: { resolve: (c) => `${c.pull.id}:${c.oid}` },
  loadMany: async (ids, ctx) => {
    const keys = ids.map((id) => {
      const colon = id.indexOf(':');
      return colon > 0 ? { pullId: dbId(id.slice(0, colon)), oid: id.slice(colon + 1) } : { pullId: 0, oid: '' };
    });
    const found = await pullCommitsByKey(ctx.cx, keys);
    return found.map((f) => (f ? { type: 'commit' as const, oid: f.commit.sha, commit: f.commit, repo: f.repo, pull: f.pull } : null));
  },
  fields: (t) => ({
    commit: t.field({ type: CommitRef, ...inherits('the commit itself (read from the base repository)'), resolve: (c) => c }),
    url: t.field({
      type: 'URI',
      description: "The commit's page in the pull request (`…/pulls/{n}/commits/{oid}`).",
      resolve: (c, _a, ctx) =>
        `${ctx.cx.config.rootUrl}${encodeURIComponent(c.repo.ownerName)}/${encodeURIComponent(c.repo.name)}/pulls/${c.pull.index}/commits/${c.oid}`,
    }),
  }),
});
tokenReadScope(PullRequestCommitRef, 'issue');

const pullLabels = prismaConnectionHelpers(builder, 'IssueLabel', {
  cursor: 'id',
  select: (nodeSelection) => ({ label: withLabelScalars(nodeSelection(true)) }),
  args: (t) => ({ orderBy: t.field({ type: LabelOrderInput, description: 'The order they were added when absent.' }) }),
  query: (args) => ({ orderBy: carriedLabelsOrderBy(args.orderBy) }),
  resolveNode: (row) => row.label,
});

const pullAssignees = prismaConnectionHelpers(builder, 'IssueAssignee', {
  cursor: 'id',
  select: (nodeSelection) => ({ assignee: withUserScalars(nodeSelection(true)) }),
  query: () => ({ orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.assignee,
});

const pullComments = prismaConnectionHelpers(builder, IssueCommentRef, {
  cursor: 'id',
  args: (t) => ({ orderBy: t.field({ type: IssueCommentOrderInput }) }),
  query: (args) => ({ where: { type: 'COMMENT' as const }, orderBy: commentOrder(args.orderBy) }),
});

/** The base repository path and the range fields every git-derived field needs. */
const GIT_SELECT = { baseRepo: { select: { ownerName: true, name: true } } } as const;
/** What a pull request's protection state (services/pull/protectionState.ts) reads besides its scalars. */
export const PROTECTION_SELECT = {
  baseRepo: { select: { ownerName: true, name: true, isArchived: true } },
  issue: { select: { title: true, isClosed: true } },
} as const;

/** A ref oid GitHub promises (non-null). @throws NotFoundError when git has neither the ref nor the sha kept on the row */
function knownOid(oid: string | null, p: Pick<Models.PullRequest, 'id'>, side: 'base' | 'head'): string {
  if (!oid)
    throw new NotFoundError(`the ${side} commit of this pull request is unknown (its ref and recorded sha are gone)`, { pullId: p.id });
  return oid;
}

builder.prismaObjectFields(PullRequestRef, (t) => ({
  title: t.string({ select: { issue: { select: { title: true } } }, resolve: (p) => p.issue.title }),
  body: t.string({ select: { issue: { select: { content: true } } }, resolve: (p) => p.issue.content }),
  url: t.field({
    type: 'URI',
    select: GIT_SELECT,
    resolve: (p, _a, ctx) => `${ctx.cx.config.rootUrl}${p.baseRepo.ownerName}/${p.baseRepo.name}/pulls/${p.index}`,
  }),
  state: t.field({
    type: PullRequestStateEnum,
    select: { issue: { select: { isClosed: true } } },
    resolve: (p) => (p.hasMerged ? 'MERGED' : p.issue.isClosed ? 'CLOSED' : 'OPEN'),
  }),
  closed: t.boolean({ select: { issue: { select: { isClosed: true } } }, resolve: (p) => p.issue.isClosed }),
  closedAt: t.field({
    type: 'DateTime',
    nullable: true,
    select: { issue: { select: { closedAt: true, isClosed: true } } },
    resolve: (p) => (p.issue.isClosed ? p.issue.closedAt : null),
  }),
  locked: t.boolean({ select: { issue: { select: { isLocked: true } } }, resolve: (p) => p.issue.isLocked }),
  isDraft: t.boolean({
    description: 'Whether the title carries a work-in-progress prefix (WIP:, [WIP]).',
    select: { issue: { select: { title: true } } },
    resolve: (p) => isWorkInProgress(p.issue.title),
  }),
  createdAt: t.field({ type: 'DateTime', select: { issue: { select: { createdAt: true } } }, resolve: (p) => p.issue.createdAt }),
  updatedAt: t.field({ type: 'DateTime', select: { issue: { select: { updatedAt: true } } }, resolve: (p) => p.issue.updatedAt }),
  author: t.field({
    type: ActorRef,
    nullable: true,
    description: 'Null for a deleted (ghost) author.',
    ...inherits('REST shows the poster with the pull request'),
    select: (_a, _c, nested) => ({ issue: { select: { poster: withUserScalars(nested(true)) } } }),
    resolve: (p) => p.issue.poster,
  }),
  milestone: t.field({
    type: MilestoneRef,
    nullable: true,
    ...inherits('a readable pull request implies its repository milestones (issues or pulls readable)'),
    select: (_a, _c, nested) => ({ issue: { select: { milestone: nested(true) } } }),
    resolve: (p) => p.issue.milestone,
  }),
  mergedBy: t.field({
    type: ActorRef,
    nullable: true,
    ...inherits('REST shows the merger with the pull request'),
    select: (_a, _c, nested) => ({ merger: withUserScalars(nested(true)) }),
    resolve: (p) => p.merger,
  }),
  mergeCommitOid: t.string({ nullable: true, resolve: (p) => (p.hasMerged && p.mergedCommitId ? p.mergedCommitId : null) }),
  mergeable: t.field({
    type: MergeableStateEnum,
    description: 'From the trial merge cached for the current head and base commits.',
    resolve: (p) => (p.status === 'CONFLICT' ? 'CONFLICTING' : p.status === 'CHECKING' || p.status === 'ERROR' ? 'UNKNOWN' : 'MERGEABLE'),
  }),
  additions: t.int({ resolve: (p) => p.additions ?? 0 }),
  deletions: t.int({ resolve: (p) => p.deletions ?? 0 }),
  changedFiles: t.int({ resolve: (p) => p.changedFiles ?? 0 }),
  baseRefOid: t.field({
    type: 'GitObjectID',
    description: "The base branch's tip; once the branch is deleted, the merge base kept on the pull request.",
    select: { ...GIT_SELECT, headRepo: { select: { ownerName: true, name: true } } },
    resolve: async (p, _a, ctx) => knownOid((await pullRefOids(ctx.cx, p)).base, p, 'base'),
  }),
  headRefOid: t.field({
    type: 'GitObjectID',
    description: "The head branch's tip; once the branch is deleted, the pull request's own head ref (`refs/pull/{n}/head`).",
    select: { ...GIT_SELECT, headRepo: { select: { ownerName: true, name: true } } },
    resolve: async (p, _a, ctx) => knownOid((await pullRefOids(ctx.cx, p)).head, p, 'head'),
  }),
  baseRef: t.field({
    type: RefRef,
    nullable: true,
    description: 'The base branch as last pushed; null once it is deleted, or without code read access.',
    ...filteredBy('branchReadWhere'),
    resolve: (p, _a, ctx) => refsOf(ctx).branches.load({ repoId: p.baseRepoId, name: p.baseBranch }),
  }),
  headRef: t.field({
    type: RefRef,
    nullable: true,
    description:
      'The head branch (in the head repository) as last pushed; null once it or its repository is deleted, or without code read access there.',
    ...filteredBy('branchReadWhere'),
    resolve: (p, _a, ctx) => (p.headRepoId ? refsOf(ctx).branches.load({ repoId: p.headRepoId, name: p.headBranch }) : null),
  }),
  headRepository: t.field({
    type: RepositoryRef,
    nullable: true,
    description: 'The repository the changes come from; null once deleted or when the viewer may not see it.',
    ...checkedBy('readableRepoIds'),
    select: (_a, _c, nested) => ({ headRepo: nested(true) }),
    resolve: async (p, _a, ctx) => (p.headRepo && (await readableRepoIds(ctx.cx, [p.headRepo])).has(p.headRepo.id) ? p.headRepo : null),
  }),
  headRepositoryOwner: t.field({
    type: RepositoryOwnerRef,
    nullable: true,
    description: 'The owner of the repository the changes come from; null once it is deleted or when the viewer may not see it.',
    ...checkedBy('readableRepoIds'),
    select: { headRepo: { select: { id: true, owner: true } } },
    resolve: async (p, _a, ctx) =>
      p.headRepo && (await readableRepoIds(ctx.cx, [p.headRepo])).has(p.headRepo.id) ? p.headRepo.owner : null,
  }),
  isCrossRepository: t.boolean({ resolve: (p) => p.headRepoId !== p.baseRepoId }),
  labels: t.connection(
    {
      type: LabelRef,
      ...inherits('REST shows the labels with the pull request'),
      args: pullLabels.getArgs(),
      select: (args, ctx, nested) => ({
        issue: { select: { labels: pullLabels.getQuery(args, ctx, bothNodePaths(nested)), _count: { select: { labels: true } } } },
      }),
      resolve: (p, args, ctx) => withTotal(pullLabels.resolve(p.issue.labels, args, ctx), p.issue._count.labels),
    },
    LabelConnectionRef,
  ),
  assignees: t.connection(
    {
      type: UserRef,
      ...inherits('REST shows the assignees with the pull request'),
      select: (args, ctx, nested) => ({
        issue: { select: { assignees: pullAssignees.getQuery(args, ctx, bothNodePaths(nested)), _count: { select: { assignees: true } } } },
      }),
      resolve: (p, args, ctx) => withTotal(pullAssignees.resolve(p.issue.assignees, args, ctx), p.issue._count.assignees),
    },
    UserConnectionRef,
  ),
  comments: t.connection(
    {
      type: IssueCommentRef,
      description: 'The plain comments, oldest first unless `orderBy` says otherwise.',
      args: pullComments.getArgs(),
      ...inherits('the comments of a readable pull request'),
      select: (args, ctx, nested) => ({
        issue: {
          select: {
            comments: pullComments.getQuery(args, ctx, bothNodePaths(nested)),
            _count: { select: { comments: { where: { type: 'COMMENT' as const } } } },
          },
        },
      }),
      resolve: (p, args, ctx) => withTotal(pullComments.resolve(p.issue.comments, args, ctx), p.issue._count.comments),
    },
    IssueCommentConnectionRef,
  ),
  files: t.connection(
    {
      type: PullRequestChangedFileRef,
      nullable: true,
      description: 'The changed files (three-dot diff), from git through a per-request loader; null without code read access.',
      ...checkedBy('pullGitRange'),
      select: GIT_SELECT,
      resolve: async (p, args, ctx) => {
        const range = await pullGitRange(ctx.cx, p);
        if (!range) return null;
        const stats = await pullGitLoaders(ctx.cx).stats.load(range);
        return arrayConnection(args, stats.files, { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE });
      },
    },
    { name: 'PullRequestChangedFileConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'PullRequestChangedFileEdge' },
  ),
  commits: t.connection(
    {
      type: PullRequestCommitRef,
      description: 'The commits (oldest first, as GitHub), from git through a per-request loader; none without code read access.',
      ...checkedBy('pullGitRange'),
      select: { baseRepo: { select: { id: true, ownerName: true, name: true, isEmpty: true } } },
      resolve: async (p, args, ctx) => {
        const range = await pullGitRange(ctx.cx, p);
        if (!range)
          return arrayConnection(args, [] as PullCommitView[], { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE });
        const { commits, total } = await pullGitLoaders(ctx.cx).commits.load(range);
        // The pull request's commits are in its base repository (refs/pull/{index}/head), where their statuses are too.
        const pull = { id: p.id, index: p.index };
        const views = commits
          .map((commit): PullCommitView => ({ type: 'commit', oid: commit.sha, commit, repo: p.baseRepo, pull }))
          .reverse();
        return arrayConnection(args, views, { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE }, total);
      },
    },
    { name: 'PullRequestCommitConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'PullRequestCommitEdge' },
  ),
}));
