import * as releaseService from '../../../services/release/release.ts';
import * as releaseWrites from '../../../services/release/releaseWrite.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRelease, toApiReleaseList } from '../../convert/release.ts';
import { defineList } from '../../list.ts';
import { idParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateReleaseOption, EditReleaseOption, ListReleasesQuery } from '../../structs/release.ts';

/** /repos/{owner}/{repo}/releases: list, latest, by tag, create, get, edit, delete (Gitea release.go, release_tags.go). */
export const releaseRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/releases',
    operationId: 'repoListReleases',
    summary: "List a repo's releases",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ListReleasesQuery,
    headers: 'link',
    schema: '[Release]',
    errors: [404],
    load: ({ cx, params, query, page }) =>
      releaseService.listReleases(cx, repoRef(params), { draft: query.draft, prerelease: query['pre-release'], page }),
    convert: (result, { cx }) => toApiReleaseList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/releases',
    operationId: 'repoCreateRelease',
    summary: 'Create a release',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateReleaseOption,
    success: { status: 201, schema: 'Release' },
    errors: [403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await releaseWrites.createRelease(cx, repoRef(params), {
        tagName: body.tag_name,
        target: body.target_commitish,
        name: body.name,
        body: body.body,
        draft: body.draft,
        prerelease: body.prerelease,
        tagMessage: body.tag_message,
      });
      return toApiRelease(view, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/releases/latest',
    operationId: 'repoGetLatestRelease',
    summary: 'Gets the most recent non-prerelease, non-draft release of a repository, sorted by created_at',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'Release' },
    errors: [404],
    handler: async ({ cx, params }) => toApiRelease(await releaseService.getLatestRelease(cx, repoRef(params)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/releases/tags/{tag}',
    operationId: 'repoGetReleaseByTag',
    summary: 'Get a release by tag name',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'Release' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiRelease(await releaseService.getReleaseByTag(cx, repoRef(params), params.tag ?? ''), convertOptions(cx)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/releases/tags/{tag}',
    operationId: 'repoDeleteReleaseByTag',
    summary: 'Delete a release by tag name',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params }) => {
      await releaseWrites.deleteReleaseByTag(cx, repoRef(params), params.tag ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/releases/{id}',
    operationId: 'repoGetRelease',
    summary: 'Get a release',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'Release' },
    errors: [404],
    handler: async ({ cx, params }) =>
      toApiRelease(await releaseService.getRelease(cx, repoRef(params), idParam(params)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/releases/{id}',
    operationId: 'repoEditRelease',
    summary: 'Update a release',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: EditReleaseOption,
    success: { status: 200, schema: 'Release' },
    errors: [403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      const view = await releaseWrites.updateRelease(cx, repoRef(params), idParam(params), {
        tagName: body.tag_name ?? undefined,
        target: body.target_commitish ?? undefined,
        name: body.name ?? undefined,
        body: body.body ?? undefined,
        draft: body.draft ?? undefined,
        prerelease: body.prerelease ?? undefined,
      });
      return toApiRelease(view, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/releases/{id}',
    operationId: 'repoDeleteRelease',
    summary: 'Delete a release',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params }) => {
      await releaseWrites.deleteRelease(cx, repoRef(params), idParam(params));
    },
  }),
];
