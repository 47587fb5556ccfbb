import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import { unitConfig, type UnitType } from '../../permissions/units.ts';
import { requireRepoFollowingRenames } from '../../services/repo/redirect.ts';
import { labelReadWhere } from '../../services/label/visibility.ts';
import { deployKeyReadWhere } from '../../services/repo/deployKey.ts';
import { readableRepoIds, repoReadWhere } from '../../services/repo/visibility.ts';
import { sshCloneUrl } from '../../ssh/settings.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId, opt } from '../ids.ts';
import { orNull } from '../nullable.ts';
import { ISSUE_PRELOADERS } from '../preload/issue.ts';
import { scalarsOnly, withPreloaded } from '../preload/plan.ts';
import { REPOSITORY_PRELOADERS } from '../preload/repositoryIssues.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { bothNodePaths } from '../selection.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { ownedRepositoryListArgs, repositoryListOrderBy, repositoryListWhere, RepositoryVisibilityEnum } from './repositoryListArgs.ts';
import { RepositoryOwnerRef } from './repositoryOwner.ts';
import { LabelConnectionRef, labelListArgs, labelListQuery, LabelRef } from './label.ts';
import { ProjectOwnerRef, StarrableRef, SubscribableRef } from './githubInterfaces.ts';

/** GitHub's RepositoryPermission. Gitea's owner and admin are both ADMIN; a viewer with no access has none (null). */
export const RepositoryPermissionEnum = builder.enumType('RepositoryPermission', {
  description: "The viewer's or a collaborator's access to a repository.",
  values: {
    ADMIN: { value: 'ADMIN' },
    MAINTAIN: { value: 'MAINTAIN', description: "GitHub's level between WRITE and ADMIN: never given, Gitea has no such level." },
    WRITE: { value: 'WRITE' },
    TRIAGE: { value: 'TRIAGE', description: "GitHub's level between READ and WRITE: never given, Gitea has no such level." },
    READ: { value: 'READ' },
  } as const,
});

export function permissionName(mode: Models.AccessMode): 'ADMIN' | 'WRITE' | 'READ' | null {
  if (atLeast(mode, 'ADMIN')) return 'ADMIN';
  if (mode === 'WRITE') return 'WRITE';
  if (mode === 'READ') return 'READ';
  return null;
}

const viewerPerm = (repo: Models.Repository, ctx: GraphQLContext): Promise<RepoPermission> => ctx.cx.loaders.repoPermission.load(repo.id);

/** A merge style is allowed unless the pull-request unit's config turns it off (Gitea's defaults are all on). */
function mergeAllowed(units: readonly { type: UnitType; config: string }[], key: string): boolean {
  const unit = units.find((u) => u.type === 'PULL_REQUESTS');
  return unit !== undefined && unitConfig(unit.config)[key] !== false;
}

export const DeployKeyRef = builder.prismaNode('DeployKey', {
  description: 'A deploy key of a repository (visible to repository admins).',
  select: { id: true },
  id: { field: 'id' },
  // node(id:): the keys of repositories the viewer administers (as GET …/keys); absent for everyone else.
  ...filteredBy('deployKeyReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [deployKeyReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    title: t.exposeString('name'),
    fingerprint: t.exposeString('fingerprint'),
    readOnly: t.boolean({ select: { mode: true }, resolve: (k) => k.mode !== 'WRITE' }),
    key: t.string({ select: { key: { select: { content: true } } }, resolve: (k) => k.key.content }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(DeployKeyRef, 'repository');

const deployKeysConnection = prismaConnectionHelpers(builder, DeployKeyRef, {
  cursor: 'id',
  query: () => ({ orderBy: { id: 'asc' as const } }),
});

/**
 * A repository. `node(id:)` and every list answer only what the viewer may see, through the same access
 * model as REST (private looks like missing).
 */
export const RepositoryRef = builder.prismaNode('Repository', {
  description: 'A git repository owned by a user or an organization.',
  interfaces: [ProjectOwnerRef, StarrableRef, SubscribableRef],
  id: { field: 'id' },
  ...filteredBy('repoReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [repoReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    name: t.exposeString('name'),
    nameWithOwner: t.string({ description: 'owner/name.', resolve: (r) => `${r.ownerName}/${r.name}` }),
    description: t.string({ nullable: true, resolve: (r) => r.description || null }),
    homepageUrl: t.field({ type: 'URI', nullable: true, resolve: (r) => r.website || null }),
    url: t.field({
      type: 'URI',
      description: 'The web URL.',
      resolve: (r, _a, ctx) => `${ctx.cx.config.rootUrl}${encodeURIComponent(r.ownerName)}/${encodeURIComponent(r.name)}`,
    }),
    cloneUrl: t.string({
      description: 'The smart-HTTP clone URL.',
      resolve: (r, _a, ctx) => `${ctx.cx.config.rootUrl}${encodeURIComponent(r.ownerName)}/${encodeURIComponent(r.name)}.git`,
    }),
    sshUrl: t.field({
      type: 'GitSSHRemote',
      description: 'The SSH URL to clone this repository (SSH_USER, SSH_DOMAIN, SSH_PORT; REST `ssh_url`).',
      resolve: (r, _a, ctx) => sshCloneUrl(ctx.cx.config.ssh, r.ownerName, r.name),
    }),
    isPrivate: t.exposeBoolean('isPrivate'),
    visibility: t.field({
      type: RepositoryVisibilityEnum,
      description: 'PUBLIC or PRIVATE (never INTERNAL).',
      resolve: (r) => (r.isPrivate ? 'PRIVATE' : 'PUBLIC'),
    }),
    isArchived: t.exposeBoolean('isArchived'),
    isFork: t.exposeBoolean('isFork'),
    isMirror: t.exposeBoolean('isMirror'),
    isTemplate: t.exposeBoolean('isTemplate'),
    isEmpty: t.exposeBoolean('isEmpty'),
    diskUsage: t.int({ description: 'Size on disk in KiB.', resolve: (r) => Math.ceil(Number(r.size) / 1024) }),
    objectFormat: t.exposeString('objectFormatName', { description: 'sha1 or sha256.' }),
    forkCount: t.exposeInt('numForks'),
    stargazerCount: t.exposeInt('numStars'),
    watcherCount: t.exposeInt('numWatches'),
    openIssueCount: t.int({ resolve: (r) => r.numIssues - r.numClosedIssues }),
    openPullRequestCount: t.int({ resolve: (r) => r.numPulls - r.numClosedPulls }),
    owner: t.field({
      type: RepositoryOwnerRef,
      ...inherits('a readable repository shows its owner (as REST repository JSON does)'),
      select: { owner: true },
      resolve: (r) => r.owner,
    }),
    hasIssuesEnabled: t.boolean({
      select: { units: { select: { type: true } } },
      resolve: (r) => r.units.some((u) => u.type === 'ISSUES'),
    }),
    hasWikiEnabled: t.boolean({ select: { units: { select: { type: true } } }, resolve: (r) => r.units.some((u) => u.type === 'WIKI') }),
    hasProjectsEnabled: t.boolean({
      select: { units: { select: { type: true } } },
      resolve: (r) => r.units.some((u) => u.type === 'PROJECTS'),
    }),
    hasPullRequestsEnabled: t.boolean({
      select: { units: { select: { type: true } } },
      resolve: (r) => r.units.some((u) => u.type === 'PULL_REQUESTS'),
    }),
    mergeCommitAllowed: t.boolean({
      select: { units: { select: { type: true, config: true } } },
      resolve: (r) => mergeAllowed(r.units, 'allowMerge'),
    }),
    rebaseMergeAllowed: t.boolean({
      select: { units: { select: { type: true, config: true } } },
      resolve: (r) => mergeAllowed(r.units, 'allowRebase'),
    }),
    squashMergeAllowed: t.boolean({
      select: { units: { select: { type: true, config: true } } },
      resolve: (r) => mergeAllowed(r.units, 'allowSquash'),
    }),
    viewerPermission: t.field({
      type: RepositoryPermissionEnum,
      nullable: true,
      resolve: async (r, _a, ctx) => permissionName((await viewerPerm(r, ctx)).mode),
    }),
    viewerCanAdminister: t.boolean({ resolve: async (r, _a, ctx) => isRepoAdmin(await viewerPerm(r, ctx)) }),
    labels: t.relatedConnection(
      'labels',
      {
        cursor: 'id',
        description:
          "The repository's own labels (organization labels are on the organization); empty without issues or pull requests read access (as GET …/labels).",
        totalCount: true,
        ...filteredBy('labelReadWhere'),
        args: labelListArgs,
        query: labelListQuery,
      },
      LabelConnectionRef,
    ),
    label: t.field({
      type: LabelRef,
      nullable: true,
      description: 'A label of the repository by name.',
      args: { name: t.arg.string({ required: true }) },
      ...filteredBy('labelReadWhere'),
      select: (args, ctx, nested) => ({
        labels: { where: { AND: [{ name: args.name }, labelReadWhere(ctx.cx)] }, take: 1, ...nested(true) },
      }),
      resolve: (r) => r.labels[0] ?? null,
    }),
    deployKeys: t.connection(
      {
        type: DeployKeyRef,
        description: 'Deploy keys: repository admins only (none for everyone else).',
        ...checkedBy('isRepoAdmin'),
        select: (args, ctx, nestedSelection) => ({
          deployKeys: deployKeysConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)),
          _count: { select: { deployKeys: true } },
        }),
        resolve: async (r, args, ctx) =>
          isRepoAdmin(await viewerPerm(r, ctx))
            ? withTotal(deployKeysConnection.resolve(r.deployKeys, args, ctx), r._count.deployKeys)
            : withTotal(deployKeysConnection.resolve([], args, ctx), 0),
      },
      { name: 'DeployKeyConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
      { name: 'DeployKeyEdge' },
    ),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
  }),
});
tokenReadScope(RepositoryRef, 'repository');

/** GitHub's RepositoryConnection: an account's repositories, forks, watched repositories. */
export const RepositoryConnectionRef = sharedConnection(RepositoryRef, 'RepositoryConnection');

const REPOSITORY_TREE_PRELOADERS = { ...REPOSITORY_PRELOADERS, ...ISSUE_PRELOADERS };

builder.queryFields((t) => ({
  repository: t.prismaField({
    type: RepositoryRef,
    nullable: true,
    description: 'Look up a repository by owner and name; null when absent or not visible.',
    ...checkedBy('requireRepoFollowingRenames'),
    args: {
      owner: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      followRenames: t.arg.boolean({ defaultValue: true, description: 'Find a renamed repository by its old name too.' }),
    },
    resolve: (query, _root, args, ctx, info) =>
      orNull(async () => {
        const { repo } = await requireRepoFollowingRenames(ctx.cx, args.owner, args.name, args.followRenames !== false);
        // The issue list and the issues' hot relations load on the read path; when nothing else is asked of the
        // repository, the row requireRepo read answers it (no Prisma statement at all).
        return withPreloaded(ctx.cx, info, 'Repository', query, REPOSITORY_TREE_PRELOADERS, (q) =>
          scalarsOnly('Repository', q)
            ? Promise.resolve({ ...repo })
            : ctx.cx.db.repository.findUniqueOrThrow({ ...q, where: { id: repo.id } }),
        );
      }),
  }),
}));

// GitHub's RepositoryOwner.repositories, which User and Organization inherit: repositories the viewer may see, by name.
builder.prismaInterfaceFields(RepositoryOwnerRef, (t) => ({
  repositories: t.relatedConnection(
    'repositories',
    {
      cursor: 'id',
      description: 'Repositories this account owns that the viewer may see, by name unless `orderBy` says otherwise.',
      totalCount: true,
      ...filteredBy('repoReadWhere'),
      args: ownedRepositoryListArgs,
      query: (args, ctx) => ({
        where: { AND: [repoReadWhere(ctx.cx), repositoryListWhere(ctx, args, true)] },
        orderBy: repositoryListOrderBy(opt(args.orderBy), [{ lowerName: 'asc' }]),
      }),
    },
    RepositoryConnectionRef,
  ),
}));

// Declared apart from RepositoryRef: a field of a type that refers to the type itself needs the finished ref.
builder.prismaObjectFields(RepositoryRef, (t) => ({
  parent: t.field({
    type: RepositoryRef,
    nullable: true,
    description: 'The repository this one was forked from, if the viewer may see it.',
    ...checkedBy('readableRepoIds'),
    select: (_args, _ctx, nested) => ({ forkOf: nested(true) }),
    resolve: async (r, _args, ctx) => (r.forkOf && (await readableRepoIds(ctx.cx, [r.forkOf])).has(r.forkOf.id) ? r.forkOf : null),
  }),
  templateRepository: t.field({
    type: RepositoryRef,
    nullable: true,
    description: 'The template this repository was generated from, if the viewer may see it.',
    ...checkedBy('readableRepoIds'),
    select: (_args, _ctx, nested) => ({ template: nested(true) }),
    resolve: async (r, _args, ctx) => (r.template && (await readableRepoIds(ctx.cx, [r.template])).has(r.template.id) ? r.template : null),
  }),
}));
