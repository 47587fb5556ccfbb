import * as repoCreate from '../../../services/repo/create.ts';
import * as repoDelete from '../../../services/repo/delete.ts';
import * as repoRead from '../../../services/repo/read.ts';
import type { RepoWithPermission } from '../../../services/repo/repoRows.ts';
import type { Page } from '../../../services/paging.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository, toApiRepositoryList } from '../../convert/repo.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { defineList } from '../../list.ts';
import { idParam } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateRepoOption } from '../../structs/repo.ts';

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** CreateRepoOption → the service input. */
function createInput(body: CreateRepoOption): repoCreate.CreateRepoInput {
  return {
    name: body.name,
    description: opt(body.description),
    private: opt(body.private),
    template: opt(body.template),
    autoInit: opt(body.auto_init),
    issueLabels: opt(body.issue_labels),
    gitignores: opt(body.gitignores),
    license: opt(body.license),
    readme: opt(body.readme),
    defaultBranch: opt(body.default_branch),
    trustModel: opt(body.trust_model),
    objectFormatName: opt(body.object_format_name),
  };
}

const one = (cx: ServiceContext, r: RepoWithPermission) => toApiRepository(r.repo, r.repo.owner, r.perm, convertOptions(cx));
const repoList = (result: Page<RepoWithPermission>, { cx }: { cx: ServiceContext }) =>
  toApiRepositoryList(result.items, convertOptions(cx));

const createDoc = {
  tag: 'repository',
  body: CreateRepoOption,
  success: { status: 201, schema: 'Repository' },
  errors: [400, 401, 403, 404, 409, 422],
};

/** Repository create, read, list and delete (Gitea routers/api/v1/repo/repo.go, user/repo.go). */
export const repoRoutes = [
  defineRoute({
    ...createDoc,
    method: 'POST',
    path: '/user/repos',
    operationId: 'createCurrentUserRepo',
    summary: 'Create a repository',
    scopes: ['repository'],
    gate: 'token',
    handler: async ({ cx, body }) => one(cx, await repoCreate.createRepo(cx, { kind: 'viewer' }, createInput(body))),
  }),
  defineRoute({
    ...createDoc,
    method: 'POST',
    path: '/orgs/{org}/repos',
    operationId: 'createOrgRepo',
    summary: 'Create a repository in an organization',
    scopes: ['organization', 'repository'],
    gate: 'token',
    handler: async ({ cx, params, body }) =>
      one(cx, await repoCreate.createRepo(cx, { kind: 'org', org: params.org ?? '' }, createInput(body))),
  }),
  defineRoute({
    ...createDoc,
    method: 'POST',
    path: '/org/{org}/repos',
    operationId: 'createOrgRepoDeprecated',
    deprecated: true,
    summary: 'Create a repository in an organization (deprecated)',
    scopes: ['organization', 'repository'],
    gate: 'token',
    handler: async ({ cx, params, body }) =>
      one(cx, await repoCreate.createRepo(cx, { kind: 'org', org: params.org ?? '' }, createInput(body))),
  }),
  defineRoute({
    ...createDoc,
    tag: 'admin',
    method: 'POST',
    path: '/admin/users/{username}/repos',
    operationId: 'adminCreateRepo',
    summary: 'Create a repository on behalf of a user',
    scopes: ['admin'],
    gate: 'admin',
    handler: async ({ cx, params, body }) =>
      one(cx, await repoCreate.createRepo(cx, { kind: 'user', username: params.username ?? '' }, createInput(body))),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoGet',
    summary: 'Get a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'Repository' },
    errors: [404],
    handler: async ({ cx, params }) => one(cx, await repoRead.getRepo(cx, params.owner ?? '', params.repo ?? '')),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoDelete',
    summary: 'Delete a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await repoDelete.deleteRepo(cx, params.owner ?? '', params.repo ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repositories/{id}',
    operationId: 'repoGetByID',
    summary: 'Get a repository by id',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'Repository' },
    errors: [404],
    params: { id: idOf('repo') },
    handler: async ({ cx, params }) => one(cx, await repoRead.getRepoById(cx, idParam(params))),
  }),
  defineList({
    path: '/user/repos',
    operationId: 'userCurrentListRepos',
    summary: 'List the repos that the authenticated user owns',
    tag: 'user',
    scopes: ['user', 'repository'],
    gate: 'token',
    headers: 'link',
    schema: '[Repository]',
    errors: [401],
    load: ({ cx, page }) => repoRead.listMyRepos(cx, page),
    convert: repoList,
  }),
  defineList({
    path: '/users/{username}/repos',
    operationId: 'userListRepos',
    summary: 'List the repos owned by the given user',
    tag: 'user',
    scopes: ['user', 'repository'],
    gate: 'none',
    headers: 'link',
    schema: '[Repository]',
    errors: [404],
    load: ({ cx, params, page }) => repoRead.listUserRepos(cx, params.username ?? '', page),
    convert: repoList,
  }),
  defineList({
    path: '/orgs/{org}/repos',
    operationId: 'orgListRepos',
    summary: "List an organization's repos",
    tag: 'organization',
    scopes: ['organization', 'repository'],
    gate: 'none',
    headers: 'link',
    schema: '[Repository]',
    errors: [404],
    load: ({ cx, params, page }) => repoRead.listOrgRepos(cx, params.org ?? '', page),
    convert: repoList,
  }),
];
