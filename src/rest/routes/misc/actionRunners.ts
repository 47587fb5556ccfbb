// Runners and registration tokens of the instance (/admin), a repository, an organization and the user (Gitea
// routers/api/v1/shared/runners.go): one set of routes per scope, the same service calls behind each.
import { z } from 'zod';
import type { ScopeCategory } from '../../../auth/scope.ts';
import { registrationToken } from '../../../services/actions/registrationTokens.ts';
import { deleteRunner, getRunner, listRunners, setRunnerDisabled } from '../../../services/actions/runners.ts';
import type { RunnersRef, SettingsRef } from '../../../services/actions/settingsScope.ts';
import { ValidationError } from '../../../errors.ts';
import { toApiRunner } from '../../convert/actions.ts';
import { intParam, listOptionsOf, qLimit, qPage, qString, repoRef } from '../../params.ts';
import { defineRoute, type Gate, type RouteDef } from '../../route.ts';
import { EditActionRunnerOption } from '../../structs/actions.ts';

/** One scope's routes: path prefix, Gitea's operation id part, tag, token scope and how to name it. */
export interface ActionsScopeDef<R extends RunnersRef = RunnersRef> {
  prefix: string;
  /** `Admin`, `Repo`, `Org` or `User`, as in Gitea's operation ids (getRepoRunners, repoCreateRunner…). */
  name: string;
  /** The scope in summaries: "global", "repo-level", "org-level", "user-level". */
  what: string;
  tag: string;
  scopes: ScopeCategory[];
  gate: Gate;
  ref: (params: Record<string, string>) => R;
}

export const ADMIN_SCOPE: ActionsScopeDef = {
  prefix: '/admin',
  name: 'Admin',
  what: 'global',
  tag: 'admin',
  scopes: ['admin'],
  gate: 'admin',
  ref: () => 'admin',
};
export const REPO_SCOPE: ActionsScopeDef<SettingsRef> = {
  prefix: '/repos/{owner}/{repo}',
  name: 'Repo',
  what: 'repo-level',
  tag: 'repository',
  scopes: ['repository'],
  gate: 'token',
  ref: (params) => ({ repo: repoRef(params) }),
};
export const ORG_SCOPE: ActionsScopeDef<SettingsRef> = {
  prefix: '/orgs/{org}',
  name: 'Org',
  what: 'org-level',
  tag: 'organization',
  scopes: ['organization'],
  gate: 'token',
  ref: (params) => ({ org: params.org ?? '' }),
};
export const USER_SCOPE: ActionsScopeDef<SettingsRef> = {
  prefix: '/user',
  name: 'User',
  what: 'user-level',
  tag: 'user',
  scopes: ['user'],
  gate: 'token',
  ref: () => 'user',
};

const runnerId = { runner_id: { schema: { type: 'string' as const }, description: 'id of the runner' } };

/** Gitea's `disabled` filter: empty = all; true/1/on = disabled only; any other value parses as false. */
function disabledFilter(raw: string | undefined): boolean | null {
  if (raw === undefined || raw === '') return null;
  return ['true', '1', 'on', 't', 'T', 'TRUE', 'True'].includes(raw);
}

function runnerRoutes(s: ActionsScopeDef): RouteDef[] {
  const lower = s.name.toLowerCase();
  const doc = { tag: s.tag, scopes: s.scopes, gate: s.gate };
  const tokenRoute = (
    method: 'GET' | 'POST',
    operationId: string,
    deprecated: boolean,
    path = `${s.prefix}/actions/runners/registration-token`,
  ) =>
    defineRoute({
      method,
      path,
      operationId,
      summary: `Get a ${s.what} actions runner registration token`,
      ...doc,
      deprecated,
      success: { status: 200, schema: 'RegistrationToken' },
      errors: [401, 403, 404],
      handler: async ({ cx, params }) => ({ token: await registrationToken(cx, s.ref(params), method === 'GET' ? 'read' : 'write') }),
    });
  // Gitea's deprecated GET of the instance token is /admin/runners/registration-token (adminGetRunnerRegistrationToken,
  // which gitea-js calls); the other scopes' GETs are under actions/ (Gitea never had /repos/…/runners/… and the like).
  const deprecatedGets =
    s === ADMIN_SCOPE
      ? [
          tokenRoute('GET', 'adminGetRunnerRegistrationToken', true, '/admin/runners/registration-token'),
          tokenRoute('GET', 'adminGetActionsRunnerRegistrationToken', true),
        ]
      : [tokenRoute('GET', `${lower}GetRunnerRegistrationToken`, true)];
  return [
    tokenRoute('POST', `${lower}CreateRunnerRegistrationToken`, false),
    ...deprecatedGets,
    defineRoute({
      method: 'GET',
      path: `${s.prefix}/actions/runners`,
      operationId: `get${s.name}Runners`,
      summary: `Get ${s.what} runners`,
      ...doc,
      query: z.object({ disabled: qString('filter by disabled status (true or false)'), page: qPage, limit: qLimit }),
      success: { status: 200, schema: 'ActionRunnersResponse' },
      errors: [400, 401, 403, 404],
      handler: async ({ cx, params, query }) => {
        // Gitea pages the runners but sends no pagination headers.
        const result = await listRunners(cx, s.ref(params), disabledFilter(query.disabled), listOptionsOf(query));
        return { runners: result.items.map(toApiRunner), total_count: result.total };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${s.prefix}/actions/runners/{runner_id}`,
      operationId: `get${s.name}Runner`,
      summary: `Get a ${s.what} runner`,
      ...doc,
      params: runnerId,
      success: { status: 200, schema: 'ActionRunner' },
      errors: [400, 401, 403, 404],
      handler: async ({ cx, params }) => toApiRunner(await getRunner(cx, s.ref(params), intParam(params.runner_id))),
    }),
    defineRoute({
      method: 'PATCH',
      path: `${s.prefix}/actions/runners/{runner_id}`,
      operationId: `update${s.name}Runner`,
      summary: `Update a ${s.what} runner`,
      ...doc,
      params: runnerId,
      body: EditActionRunnerOption,
      success: { status: 200, schema: 'ActionRunner' },
      errors: [400, 401, 403, 404, 422],
      handler: async ({ cx, params, body }) => {
        const id = intParam(params.runner_id);
        await getRunner(cx, s.ref(params), id);
        if (body.disabled === undefined || body.disabled === null) throw new ValidationError('[Disabled]: Required');
        return toApiRunner(await setRunnerDisabled(cx, s.ref(params), id, body.disabled));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${s.prefix}/actions/runners/{runner_id}`,
      operationId: `delete${s.name}Runner`,
      summary: `Delete a ${s.what} runner`,
      ...doc,
      params: runnerId,
      success: { status: 204 },
      errors: [400, 401, 403, 404],
      handler: async ({ cx, params }) => {
        await deleteRunner(cx, s.ref(params), intParam(params.runner_id));
      },
    }),
  ];
}

/** Every scope's runner routes. */
export const actionRunnerRoutes: RouteDef[] = [ADMIN_SCOPE, REPO_SCOPE, ORG_SCOPE, USER_SCOPE].flatMap(runnerRoutes);
