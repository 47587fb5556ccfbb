import * as tagService from '../../../services/release/tag.ts';
import { toApiAnnotatedTag, toApiTag, toApiTagList } from '../../convert/tag.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateTagOption } from '../../structs/tag.ts';

/** /repos/{owner}/{repo}/tags (list, create, get, delete) and /git/tags/{sha} (Gitea tag.go). */
export const tagRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/tags',
    operationId: 'repoListTags',
    summary: "List a repository's tags",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'count',
    schema: '[Tag]',
    errors: [404],
    load: async ({ cx, params, page }) => {
      const ref = repoRef(params);
      return { ...(await tagService.listTags(cx, ref, page)), ref };
    },
    convert: (result, { cx }) => toApiTagList({ ownerName: result.ref.owner, name: result.ref.repo }, result.items, cx.config.rootUrl),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/tags',
    operationId: 'repoCreateTag',
    summary: 'Create a new git tag in a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateTagOption,
    success: { status: 201, schema: 'Tag' },
    errors: [403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      const ref = repoRef(params);
      const tag = await tagService.createTag(cx, ref, { tagName: body.tag_name, target: body.target, message: body.message });
      return toApiTag({ ownerName: ref.owner, name: ref.repo }, tag, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/tags/{tag}',
    operationId: 'repoGetTag',
    summary: 'Get the tag of a repository by tag name',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'tag',
    success: { status: 200, schema: 'Tag' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const ref = repoRef(params);
      return toApiTag({ ownerName: ref.owner, name: ref.repo }, await tagService.getTag(cx, ref, params.tag ?? ''), cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/tags/{tag}',
    operationId: 'repoDeleteTag',
    summary: "Delete a repository's tag by name",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'tag',
    success: { status: 204 },
    errors: [403, 404, 409, 422, 423],
    handler: async ({ cx, params }) => {
      await tagService.deleteTag(cx, repoRef(params), params.tag ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/git/tags/{sha}',
    operationId: 'GetAnnotatedTag',
    summary: 'Gets the tag object of an annotated tag (not lightweight tags)',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'AnnotatedTag' },
    errors: [400, 404],
    handler: async ({ cx, params }) =>
      toApiAnnotatedTag(await tagService.getAnnotatedTag(cx, repoRef(params), params.sha ?? ''), cx.config.rootUrl),
  }),
];
