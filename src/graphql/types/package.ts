// Packages in the graph (GitHub's Package, PackageVersion, PackageFile): `User.packages`,
// `Organization.packages`, `Repository.packages`, each filtered by the package read policy.
import { encodeGlobalID } from '@pothos/plugin-relay';
import * as packageService from '../../services/package/api.ts';
import { PACKAGE_TYPES } from '../../services/package/api.ts';
import { packageReadWhere, packageVersionReadWhere } from '../../services/package/visibility.ts';
import { repoReadWhere } from '../../services/repo/visibility.ts';
import { Models } from '../../db/client.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, dbIdOf, requireDbIdOf } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { OrganizationRef } from './organization.ts';
import { RepositoryRef } from './repository.ts';
import { RepositoryOwnerRef } from './repositoryOwner.ts';
import { UserRef } from './user.ts';
import { directionOf, optionalOrderInput } from './orderInput.ts';

const PackageTypeEnum = builder.enumType('PackageType', {
  description: "The registry a package belongs to (Gitea's package types; Gitea's container registry is GitHub's DOCKER).",
  // GitHub names the container (OCI/Docker image) registry DOCKER.
  values: Object.fromEntries(
    PACKAGE_TYPES.map((t) => [t === 'container' ? 'DOCKER' : t.toUpperCase(), { value: t.toUpperCase() as Models.PackageType }]),
  ),
});

const VERSION_ORDER = [{ id: 'desc' as const }];

// GitHub's package order inputs; created order is id order (rows are written as they are uploaded).
const PackageOrderInput = optionalOrderInput('PackageOrder', ['CREATED_AT'] as const, 'package connections');
const PackageVersionOrderInput = optionalOrderInput('PackageVersionOrder', ['CREATED_AT'] as const, 'package version connections');
const PackageFileOrderInput = optionalOrderInput('PackageFileOrder', ['CREATED_AT'] as const, 'package file connections');
/** An optional order's id direction (GitHub's direction defaults to `fallback`). */
const idOrder = (o: { direction?: 'ASC' | 'DESC' | null } | null | undefined, fallback: 'asc' | 'desc') =>
  o?.direction ? directionOf(o) : fallback;

const PackageRef = builder.prismaNode('Package', {
  description: 'A package of a user or an organization, optionally linked to a repository.',
  id: { field: 'id' },
  ...filteredBy('packageReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [packageReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    packageType: t.field({ type: PackageTypeEnum, resolve: (p) => p.type }),
    owner: t.field({
      type: RepositoryOwnerRef,
      ...inherits('a readable package implies a readable owner'),
      select: { owner: true },
      resolve: (p) => p.owner,
    }),
    repository: t.relation('repo', {
      type: RepositoryRef,
      nullable: true,
      description: 'The linked repository, when the viewer may read it.',
      ...filteredBy('repoReadWhere'),
      query: (_args, ctx) => ({ where: repoReadWhere(ctx.cx) }),
    }),
    versions: t.relatedConnection(
      'versions',
      {
        cursor: 'id',
        description:
          'Versions, last uploaded first: `versions(first: 1)` is the latest (as GET /api/v1/packages/{owner}/{type}/{name}/-/latest).',
        totalCount: true,
        ...filteredBy('packageVersionReadWhere'),
        args: { orderBy: t.arg({ type: PackageVersionOrderInput, defaultValue: { field: 'CREATED_AT', direction: 'DESC' } }) },
        query: (args, ctx) => ({
          where: packageVersionReadWhere(ctx.cx),
          orderBy: args.orderBy ? [{ id: idOrder(args.orderBy, 'desc') }] : VERSION_ORDER,
        }),
      },
      { name: 'PackageVersionConnection' },
      { name: 'PackageVersionEdge' },
    ),
  }),
});
tokenReadScope(PackageRef, 'package');

/** GitHub's PackageConnection: an account's or a repository's packages. */
const PackageConnectionRef = sharedConnection(PackageRef, 'PackageConnection');

const PackageVersionRef = builder.prismaNode('PackageVersion', {
  description: 'A version of a package.',
  id: { field: 'id' },
  ...filteredBy('packageVersionReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [packageVersionReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    version: t.exposeString('version'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    downloadCount: t.exposeInt('downloadCount'),
    package: t.relation('package', { ...inherits('a readable version implies a readable package') }),
    creator: t.relation('creator', { type: UserRef, nullable: true, ...inherits('REST shows the creator with the package') }),
    files: t.relatedConnection(
      'files',
      {
        cursor: 'id',
        description: 'The files of the version, oldest first.',
        totalCount: true,
        ...inherits('the files of a readable version are readable'),
        args: { orderBy: t.arg({ type: PackageFileOrderInput, defaultValue: { field: 'CREATED_AT', direction: 'ASC' } }) },
        query: (args) => ({ orderBy: { id: idOrder(args.orderBy, 'asc') } }),
      },
      { name: 'PackageFileConnection' },
      { name: 'PackageFileEdge' },
    ),
  }),
});
tokenReadScope(PackageVersionRef, 'package');

const PackageFileRef = builder.prismaNode('PackageFile', {
  description: 'A file of a package version, with the size and hashes of its content.',
  id: { field: 'id' },
  ...filteredBy('packageVersionReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [{ version: packageVersionReadWhere(ctx.cx) }] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    size: t.float({ description: 'Bytes.', select: { blob: { select: { size: true } } }, resolve: (f) => Number(f.blob.size) }),
    md5: t.string({ select: { blob: { select: { hashMd5: true } } }, resolve: (f) => f.blob.hashMd5 }),
    sha1: t.string({ select: { blob: { select: { hashSha1: true } } }, resolve: (f) => f.blob.hashSha1 }),
    sha256: t.string({ select: { blob: { select: { hashSha256: true } } }, resolve: (f) => f.blob.hashSha256 }),
    sha512: t.string({ select: { blob: { select: { hashSha512: true } } }, resolve: (f) => f.blob.hashSha512 }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    packageVersion: t.relation('version', { type: PackageVersionRef, ...inherits('a readable file implies a readable version') }),
  }),
});
tokenReadScope(PackageFileRef, 'package');

function packagesWhere(
  ctx: { cx: Parameters<typeof packageReadWhere>[0] },
  args: {
    packageType?: Models.PackageType | null;
    names?: readonly (string | null | undefined)[] | null;
    repositoryId?: { typename: string; id: string } | null;
  },
): Models.Prisma.PackageWhereInput {
  const names = args.names?.filter((n): n is string => typeof n === 'string').map((n) => n.toLowerCase());
  return {
    AND: [
      packageReadWhere(ctx.cx),
      args.packageType ? { type: args.packageType } : {},
      args.repositoryId ? { repoId: dbIdOf(args.repositoryId, 'Repository') } : {},
      names?.length ? { lowerName: { in: names } } : {},
      { versions: { some: { isInternal: false } } },
    ],
  };
}

for (const ref of [UserRef, OrganizationRef, RepositoryRef] as const) {
  builder.prismaObjectFields(ref, (t) => ({
    packages: t.relatedConnection(
      'packages',
      {
        cursor: 'id',
        description: 'Packages the viewer may read (of the account, or linked to the repository), by name unless `orderBy` says otherwise.',
        totalCount: true,
        ...filteredBy('packageReadWhere'),
        args: {
          packageType: t.arg({ type: PackageTypeEnum, required: false, description: 'Only packages of this type.' }),
          names: t.arg({
            type: ['String'],
            required: { list: false, items: false },
            description: 'Only packages with one of these names.',
          }),
          repositoryId: t.arg.globalID({ description: 'Only packages linked to this repository.' }),
          orderBy: t.arg({ type: PackageOrderInput }),
        },
        query: (args, ctx) => ({
          where: packagesWhere(ctx, args),
          orderBy: args.orderBy ? [{ id: idOrder(args.orderBy, 'desc') }] : [{ lowerName: 'asc' as const }, { id: 'asc' as const }],
        }),
      },
      PackageConnectionRef,
    ),
  }));
}

/** The database id of a global id of `type`. @throws NotFoundError for another type's id */
const idOf = (id: { typename: string; id: string }, type: 'Package' | 'PackageVersion'): number => requireDbIdOf(id, type, 'not found');

builder.relayMutationField(
  'deletePackageVersion',
  { inputFields: (t) => ({ packageVersionId: t.globalID({ required: true }) }) },
  {
    description:
      'Delete a package version and its files (write access to the owner; as DELETE /api/v1/packages/{owner}/{type}/{name}/{version}).',
    ...writeScope('package'),
    resolve: async (_root, { input }, ctx) => {
      const ref = await packageService.packageVersionRefById(ctx.cx, idOf(input.packageVersionId, 'PackageVersion'));
      await packageService.deletePackageVersion(ctx.cx, ref, ref.version);
      return { success: true };
    },
  },
  { outputFields: (t) => ({ success: t.boolean({ resolve: (p) => p.success }) }) },
);

builder.relayMutationField(
  'deletePackage',
  { inputFields: (t) => ({ packageId: t.globalID({ required: true }) }) },
  {
    description: 'Delete a package with all its versions (as DELETE /api/v1/packages/{owner}/{type}/{name}).',
    ...writeScope('package'),
    resolve: async (_root, { input }, ctx) => {
      await packageService.deletePackage(ctx.cx, await packageService.packageRefById(ctx.cx, idOf(input.packageId, 'Package')));
      return { id: encodeGlobalID('Package', input.packageId.id) };
    },
  },
  { outputFields: (t) => ({ deletedPackageId: t.id({ description: 'The global id of the deleted package.', resolve: (p) => p.id }) }) },
);

builder.relayMutationField(
  'linkPackage',
  { inputFields: (t) => ({ packageId: t.globalID({ required: true }), repositoryName: t.string({ required: true }) }) },
  {
    description: 'Link a package to a repository of its owner (as POST /api/v1/packages/{owner}/{type}/{name}/-/link/{repo_name}).',
    ...writeScope('package'),
    resolve: async (_root, { input }, ctx) => {
      const id = idOf(input.packageId, 'Package');
      await packageService.linkPackage(ctx.cx, await packageService.packageRefById(ctx.cx, id), input.repositoryName);
      return { id };
    },
  },
  {
    outputFields: (t) => ({
      package: t.prismaField({
        type: 'Package',
        nullable: true,
        ...inherits('the package the viewer just linked'),
        resolve: (query, p, _a, ctx) => ctx.cx.db.package.findUnique({ ...query, where: { id: p.id } }),
      }),
    }),
  },
);

builder.relayMutationField(
  'unlinkPackage',
  { inputFields: (t) => ({ packageId: t.globalID({ required: true }) }) },
  {
    description: 'Remove the repository link of a package (as POST /api/v1/packages/{owner}/{type}/{name}/-/unlink).',
    ...writeScope('package'),
    resolve: async (_root, { input }, ctx) => {
      const id = idOf(input.packageId, 'Package');
      await packageService.unlinkPackage(ctx.cx, await packageService.packageRefById(ctx.cx, id));
      return { id };
    },
  },
  {
    outputFields: (t) => ({
      package: t.prismaField({
        type: 'Package',
        nullable: true,
        ...inherits('the package the viewer just unlinked'),
        resolve: (query, p, _a, ctx) => ctx.cx.db.package.findUnique({ ...query, where: { id: p.id } }),
      }),
    }),
  },
);
