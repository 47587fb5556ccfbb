import type { ServiceContext } from '../../../services/context.ts';
import * as packageApi from '../../../services/package/api.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPackage, toApiPackageFile } from '../../convert/package.ts';
import { defineList } from '../../list.ts';
import type { PathParamDoc } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { ListPackagesQuery } from '../../structs/package.ts';

const str = (description: string): PathParamDoc => ({ schema: { type: 'string' }, description });
const PARAMS = {
  owner: str('owner of the package'),
  type: str('type of the package'),
  name: str('name of the package'),
  version: str('version of the package'),
  repo_name: str('name of the repository to link.'),
};

const ref = (params: Record<string, string>): packageApi.PackageRef => ({
  owner: params.owner ?? '',
  type: params.type ?? '',
  name: params.name ?? '',
});
const one = (cx: ServiceContext, view: packageApi.PackageVersionView) => toApiPackage(view, cx.viewer, convertOptions(cx));
const many = (cx: ServiceContext, views: readonly packageApi.PackageVersionView[]) => views.map((v) => one(cx, v));

/**
 * /packages/{owner}…: the package API (Gitea's group has tokenRequiresScopes(Package) and reqToken, then
 * reqPackageAccess per route: 403 here, unlike the registries' 401).
 */
export const packageRoutes = [
  defineList({
    path: '/packages/{owner}',
    operationId: 'listPackages',
    summary: 'Gets all packages of an owner',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    query: ListPackagesQuery,
    headers: 'link',
    schema: '[Package]',
    errors: [401, 403, 404],
    load: ({ cx, params, query, page }) =>
      packageApi.listOwnerPackages(cx, params.owner ?? '', { type: query.type, q: query.q?.trim() }, page),
    convert: (result, { cx }) => many(cx, result.items),
  }),
  defineList({
    path: '/packages/{owner}/{type}/{name}',
    operationId: 'listPackageVersions',
    summary: 'Gets all versions of a package',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    headers: 'link',
    schema: '[Package]',
    errors: [401, 403, 404],
    load: ({ cx, params, page }) => packageApi.listPackageVersions(cx, ref(params), page),
    convert: (result, { cx }) => many(cx, result.items),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/packages/{owner}/{type}/{name}',
    operationId: 'deletePackage',
    summary: 'Delete a package with all its versions',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await packageApi.deletePackage(cx, ref(params));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/packages/{owner}/{type}/{name}/-/latest',
    operationId: 'getLatestPackageVersion',
    summary: 'Gets the latest version of a package',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 200, schema: 'Package' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => one(cx, await packageApi.getLatestPackageVersion(cx, ref(params))),
  }),
  defineRoute({
    method: 'POST',
    path: '/packages/{owner}/{type}/{name}/-/link/{repo_name}',
    operationId: 'linkPackage',
    summary: 'Link a package to a repository',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 201 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await packageApi.linkPackage(cx, ref(params), params.repo_name ?? '');
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/packages/{owner}/{type}/{name}/-/unlink',
    operationId: 'unlinkPackage',
    summary: 'Unlink a package from a repository',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 201 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await packageApi.unlinkPackage(cx, ref(params));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/packages/{owner}/{type}/{name}/{version}',
    operationId: 'getPackage',
    summary: 'Gets a package',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 200, schema: 'Package' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => one(cx, await packageApi.getPackageVersion(cx, ref(params), params.version ?? '')),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/packages/{owner}/{type}/{name}/{version}',
    operationId: 'deletePackageVersion',
    summary: 'Delete a package version',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await packageApi.deletePackageVersion(cx, ref(params), params.version ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/packages/{owner}/{type}/{name}/{version}/files',
    operationId: 'listPackageFiles',
    summary: 'Gets all files of a package',
    tag: 'package',
    scopes: ['package'],
    gate: 'token',
    params: PARAMS,
    success: { status: 200, schema: '[PackageFile]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => (await packageApi.listPackageFiles(cx, ref(params), params.version ?? '')).map(toApiPackageFile),
  }),
];
