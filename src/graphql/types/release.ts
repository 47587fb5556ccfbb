import { encodeGlobalID } from '@pothos/plugin-relay';
import { attachmentContentType } from '../../services/attachment/attachment.ts';
import * as releaseService from '../../services/release/release.ts';
import * as releaseWrites from '../../services/release/releaseWrite.ts';
import * as assetService from '../../services/release/asset.ts';
import { releaseAssetReadWhere } from '../../services/attachment/visibility.ts';
import { releaseReadWhere } from '../../services/release/visibility.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, opt, requireDbIdOf } from '../ids.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { CommitRef, loadCommit } from './gitObject.ts';
import { OrderDirectionEnum } from './orderInput.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';
import { ghostUser } from '../../services/user/ghost.ts';
import { withUserScalars } from '../selection.ts';
import { ReactableRef } from './githubInterfaces.ts';

/** A file attached to a release (GitHub's ReleaseAsset); node(id:) answers only what the attachment read policy lets the viewer read. */
const ReleaseAssetRef = builder.prismaNode('Attachment', {
  name: 'ReleaseAsset',
  description: 'A file attached to a release.',
  id: { field: 'id' },
  ...filteredBy('releaseAssetReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [releaseAssetReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    contentType: t.string({ description: 'The type it is served with (from its name).', resolve: (a) => attachmentContentType(a.name) }),
    size: t.int({ description: 'Bytes.', resolve: (a) => Number(a.size) }),
    downloadCount: t.exposeInt('downloadCount'),
    downloadUrl: t.field({
      type: 'URI',
      description: 'Where it downloads (`browser_download_url`).',
      resolve: (a, _args, ctx) => `${ctx.cx.config.rootUrl}attachments/${a.uuid}`,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    uploadedBy: t.field({
      type: UserRef,
      description: 'Who uploaded the file: Gitea\'s Ghost user (id -1, login "Ghost") once that account is deleted.',
      ...inherits('REST shows assets with their release'),
      select: (_a, _c, nested) => ({ uploader: withUserScalars(nested(true)) }),
      resolve: (a) => a.uploader ?? ghostUser(),
    }),
  }),
});
tokenReadScope(ReleaseAssetRef, 'repository');

/** A release; node(id:) answers only releases the viewer may read (releaseReadWhere: drafts to writers). */
export const ReleaseRef = builder.prismaNode('Release', {
  description: 'A release of a repository, tied to a git tag.',
  interfaces: [ReactableRef],
  id: { field: 'id' },
  ...filteredBy('releaseReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [releaseReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    tagName: t.exposeString('tagName'),
    name: t.string({ nullable: true, resolve: (r) => r.title || null }),
    description: t.string({ nullable: true, resolve: (r) => r.note || null }),
    isDraft: t.exposeBoolean('isDraft'),
    isPrerelease: t.exposeBoolean('isPrerelease'),
    isLatest: t.loadable({
      type: 'Boolean',
      description: "Whether this is the repository's latest release (newest published, not a pre-release).",
      ...checkedBy('latestReleaseFlags'),
      load: (ids: number[], ctx) => releaseService.latestReleaseFlags(ctx.cx, ids),
      resolve: (r) => r.id,
    }),
    author: t.relation('publisher', { type: UserRef, nullable: true, ...inherits('REST shows the publisher with the release') }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    publishedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: "When it was published (Gitea's one stored time); null for a draft.",
      resolve: (r) => (r.isDraft ? null : r.createdAt),
    }),
    tagCommit: t.field({
      type: CommitRef,
      nullable: true,
      description: 'The commit its tag points at; null for a draft whose tag does not exist yet, or when the code is not readable.',
      ...checkedBy('gitObjectLoader (code unit readable)'),
      select: { repo: { select: { id: true, ownerName: true, name: true, isEmpty: true } } },
      resolve: (r, _a, ctx) => (r.sha1 ? loadCommit(ctx, r.repo, r.sha1) : null),
    }),
    url: t.field({
      type: 'URI',
      description: 'The web URL.',
      select: { repo: { select: { ownerName: true, name: true } } },
      resolve: (r, _a, ctx) =>
        `${ctx.cx.config.rootUrl}${encodeURIComponent(r.repo.ownerName)}/${encodeURIComponent(r.repo.name)}/releases/tag/${r.tagName
          .split('/')
          .map(encodeURIComponent)
          .join('/')}`,
    }),
    repository: t.relation('repo', { type: RepositoryRef, ...inherits('a readable release implies a readable repository') }),
    releaseAssets: t.relatedConnection(
      'attachments',
      {
        type: ReleaseAssetRef,
        cursor: 'id',
        description: 'Files attached to the release, oldest first.',
        totalCount: true,
        ...filteredBy('releaseAssetReadWhere'),
        args: { name: t.arg.string({ description: 'Only the asset with exactly this file name.' }) },
        query: (args, ctx) => ({
          where: { AND: [releaseAssetReadWhere(ctx.cx), args.name != null ? { name: args.name } : {}] },
          orderBy: [{ id: 'asc' as const }],
        }),
      },
      { name: 'ReleaseAssetConnection' },
      { name: 'ReleaseAssetEdge' },
    ),
  }),
});
tokenReadScope(ReleaseRef, 'repository');

builder.prismaObjectFields(ReleaseAssetRef, (t) => ({
  release: t.relation('release', { type: ReleaseRef, nullable: true, ...inherits('a readable asset implies a readable release') }),
}));

const ReleaseOrderFieldEnum = builder.enumType('ReleaseOrderField', {
  description: 'Properties by which release connections can be ordered.',
  values: { CREATED_AT: { value: 'CREATED_AT' }, NAME: { value: 'NAME' } } as const,
});

const ReleaseOrderInput = builder.inputType('ReleaseOrder', {
  description: "Ordering options for release connections (without one: Gitea's order, newest first).",
  fields: (t) => ({
    field: t.field({ type: ReleaseOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

function releaseOrderBy(order: { field: 'CREATED_AT' | 'NAME'; direction: 'ASC' | 'DESC' } | null | undefined) {
  if (!order) return releaseService.RELEASE_ORDER;
  const dir = order.direction === 'DESC' ? ('desc' as const) : ('asc' as const);
  return order.field === 'NAME' ? [{ title: dir }, { id: dir }] : [{ createdAt: dir }, { id: dir }];
}

builder.prismaObjectFields(RepositoryRef, (t) => ({
  releases: t.relatedConnection(
    'releases',
    {
      cursor: 'id',
      description: "The repository's releases (as GET /api/v1/repos/{o}/{r}/releases): no bare tags, drafts only for writers.",
      totalCount: true,
      ...filteredBy('releaseReadWhere'),
      args: { orderBy: t.arg({ type: ReleaseOrderInput }) },
      query: (args, ctx) => ({ where: releaseReadWhere(ctx.cx), orderBy: releaseOrderBy(args.orderBy) }),
    },
    { name: 'ReleaseConnection' },
    { name: 'ReleaseEdge' },
  ),
  release: t.field({
    type: ReleaseRef,
    nullable: true,
    description: 'The release of a tag.',
    ...filteredBy('releaseReadWhere'),
    args: { tagName: t.arg.string({ required: true }) },
    select: (args, ctx, nested) => ({
      releases: { where: { AND: [{ lowerTagName: args.tagName.toLowerCase() }, releaseReadWhere(ctx.cx)] }, take: 1, ...nested(true) },
    }),
    resolve: (r) => r.releases[0] ?? null,
  }),
  latestRelease: t.field({
    type: ReleaseRef,
    nullable: true,
    description: 'The newest release that is neither a draft nor a pre-release (as GET …/releases/latest).',
    ...filteredBy('releaseReadWhere'),
    select: (_args, ctx, nested) => ({
      releases: {
        where: { AND: [{ isDraft: false, isPrerelease: false }, releaseReadWhere(ctx.cx)] },
        orderBy: releaseService.RELEASE_ORDER,
        take: 1,
        ...nested(true),
      },
    }),
    resolve: (r) => r.releases[0] ?? null,
  }),
}));

/** The database id of a Release global id. @throws NotFoundError for another type's id */
function releaseDbId(id: { typename: string; id: string }): number {
  return requireDbIdOf(id, 'Release', 'not found');
}

builder.relayMutationField(
  'createRelease',
  {
    inputFields: (t) => ({
      repositoryOwner: t.string({ required: true }),
      repositoryName: t.string({ required: true }),
      tagName: t.string({ required: true }),
      target: t.string({ description: 'Branch, tag or commit the tag is created at (default branch).' }),
      name: t.string(),
      description: t.string(),
      isDraft: t.boolean(),
      isPrerelease: t.boolean(),
      tagMessage: t.string({ description: 'Makes the new tag annotated (tagger: the viewer).' }),
    }),
  },
  {
    description:
      'Create a release, and its tag when published (release writers; as POST /api/v1/repos/{o}/{r}/releases). GitHub has no such mutation.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({
      release: (
        await releaseWrites.createRelease(
          ctx.cx,
          { owner: input.repositoryOwner, repo: input.repositoryName },
          {
            tagName: input.tagName,
            target: opt(input.target),
            name: opt(input.name),
            body: opt(input.description),
            draft: opt(input.isDraft),
            prerelease: opt(input.isPrerelease),
            tagMessage: opt(input.tagMessage),
          },
        )
      ).release,
    }),
  },
  { outputFields: (t) => ({ release: t.field({ type: ReleaseRef, resolve: (p) => p.release }) }) },
);

builder.relayMutationField(
  'updateRelease',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      tagName: t.string(),
      target: t.string(),
      name: t.string({ description: 'An empty string changes nothing (as Gitea).' }),
      description: t.string({ description: 'An empty string changes nothing (as Gitea).' }),
      isDraft: t.boolean({ description: 'false publishes a draft (its tag is created).' }),
      isPrerelease: t.boolean(),
    }),
  },
  {
    description: 'Edit or publish a release (release writers; as PATCH /api/v1/repos/{o}/{r}/releases/{id}). GitHub has no such mutation.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({
      release: (
        await releaseWrites.updateReleaseById(ctx.cx, releaseDbId(input.id), {
          tagName: opt(input.tagName),
          target: opt(input.target),
          name: opt(input.name),
          body: opt(input.description),
          draft: opt(input.isDraft),
          prerelease: opt(input.isPrerelease),
        })
      ).release,
    }),
  },
  { outputFields: (t) => ({ release: t.field({ type: ReleaseRef, resolve: (p) => p.release }) }) },
);

builder.relayMutationField(
  'deleteRelease',
  { inputFields: (t) => ({ id: t.globalID({ required: true }) }) },
  {
    description:
      'Delete a release, keeping its tag (release writers; as DELETE /api/v1/repos/{o}/{r}/releases/{id}). GitHub has no such mutation.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      await releaseWrites.deleteReleaseById(ctx.cx, releaseDbId(input.id));
      return { id: encodeGlobalID('Release', input.id.id) };
    },
  },
  { outputFields: (t) => ({ deletedReleaseId: t.id({ description: 'The global id of the deleted release.', resolve: (p) => p.id }) }) },
);

/** The database id of a ReleaseAsset global id. @throws NotFoundError for another type's id */
function assetDbId(id: { typename: string; id: string }): number {
  return requireDbIdOf(id, 'ReleaseAsset', 'attachment does not exist');
}

builder.relayMutationField(
  'updateReleaseAsset',
  { inputFields: (t) => ({ id: t.globalID({ required: true }), name: t.string({ required: true }) }) },
  {
    description:
      'Rename a release asset (release writers; as PATCH /api/v1/repos/{o}/{r}/releases/{id}/assets/{attachment_id}). GitHub has no such mutation.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({ asset: await assetService.editReleaseAssetById(ctx.cx, assetDbId(input.id), input.name) }),
  },
  { outputFields: (t) => ({ releaseAsset: t.field({ type: ReleaseAssetRef, resolve: (p) => p.asset }) }) },
);

builder.relayMutationField(
  'deleteReleaseAsset',
  { inputFields: (t) => ({ id: t.globalID({ required: true }) }) },
  {
    description:
      'Delete a release asset and its file (release writers; as DELETE /api/v1/repos/{o}/{r}/releases/{id}/assets/{attachment_id}). GitHub has no such mutation.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      await assetService.deleteReleaseAssetById(ctx.cx, assetDbId(input.id));
      return { id: encodeGlobalID('ReleaseAsset', input.id.id) };
    },
  },
  { outputFields: (t) => ({ deletedReleaseAssetId: t.id({ description: 'The global id of the deleted asset.', resolve: (p) => p.id }) }) },
);
