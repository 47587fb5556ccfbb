import type { ScopeCategory } from '../../../auth/scope.ts';
import * as projectService from '../../../services/project/project.ts';
import type { ProjectOwnerRef } from '../../../services/project/projectScope.ts';
import { toApiProject, toApiProjectList } from '../../convert/project.ts';
import { defineList } from '../../list.ts';
import { idParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CreateProjectOption, EditProjectOption, ListProjectsQuery, PROJECT_TEMPLATE_TYPES } from '../../structs/project.ts';

/**
 * Projects: Gitea 1.27 has no projects API, so this small extension follows Gitea's conventions. The same five
 * operations exist for a repository's projects (`/repos/{owner}/{repo}/projects`, token scope `repository`)
 * and an organization's (`/orgs/{org}/projects`, the path group a Gitea fork uses; token scope `organization`).
 */
const owners: {
  prefix: string;
  tag: string;
  scope: ScopeCategory;
  ref: (params: Record<string, string>) => ProjectOwnerRef;
  op: string;
}[] = [
  {
    prefix: '/repos/{owner}/{repo}',
    tag: 'repository',
    scope: 'repository',
    ref: repoRef,
    op: 'repo',
  },
  { prefix: '/orgs/{org}', tag: 'organization', scope: 'organization', ref: (p) => ({ org: p.org ?? '' }), op: 'org' },
];

const PROJECT_ID = { id: idOf('project') };

/** GET|POST …/projects and GET|PATCH|DELETE …/projects/{id}, for repositories and organizations. */
export const projectRoutes: readonly RouteDef[] = owners.flatMap(({ prefix, tag, scope, ref, op }) => [
  defineList({
    path: `${prefix}/projects`,
    operationId: `${op}ListProjects`,
    summary: op === 'repo' ? "List a repository's projects" : "List an organization's projects",
    tag,
    scopes: [scope],
    gate: 'none',
    query: ListProjectsQuery,
    headers: 'link',
    schema: '[Project]',
    errors: [404],
    load: ({ cx, params, query, page }) => projectService.listProjects(cx, ref(params), { state: query.state, sort: query.sort, page }),
    convert: (result) => toApiProjectList(result.items),
  }),
  defineRoute({
    method: 'POST',
    path: `${prefix}/projects`,
    operationId: `${op}CreateProject`,
    summary: 'Create a project (with its default column)',
    tag,
    scopes: [scope],
    gate: 'none',
    body: CreateProjectOption,
    success: { status: 201, schema: 'Project' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiProject(
        await projectService.createProject(cx, ref(params), {
          title: body.title,
          description: body.description,
          template: PROJECT_TEMPLATE_TYPES[body.template_type ?? 0],
        }),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: `${prefix}/projects/{id}`,
    operationId: `${op}GetProject`,
    summary: 'Get a project',
    tag,
    scopes: [scope],
    gate: 'none',
    params: PROJECT_ID,
    success: { status: 200, schema: 'Project' },
    errors: [404],
    handler: async ({ cx, params }) => toApiProject(await projectService.getProject(cx, ref(params), idParam(params))),
  }),
  defineRoute({
    method: 'PATCH',
    path: `${prefix}/projects/{id}`,
    operationId: `${op}EditProject`,
    summary: 'Edit a project (title, description, state); only given fields change',
    tag,
    scopes: [scope],
    gate: 'none',
    params: PROJECT_ID,
    body: EditProjectOption,
    success: { status: 200, schema: 'Project' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiProject(
        await projectService.updateProject(cx, ref(params), idParam(params), {
          title: body.title ?? undefined,
          description: body.description ?? undefined,
          state: body.state ?? undefined,
        }),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${prefix}/projects/{id}`,
    operationId: `${op}DeleteProject`,
    summary: 'Delete a project',
    tag,
    scopes: [scope],
    gate: 'none',
    params: PROJECT_ID,
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await projectService.deleteProject(cx, ref(params), idParam(params));
    },
  }),
]) as readonly RouteDef[];
