import { listRepoTasks } from '../../../services/actions/taskList.ts';
import { toApiTask } from '../../convert/actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';

/** GET /repos/{owner}/{repo}/actions/tasks (Gitea ListActionTasks): the repository's tasks, newest first. */
export const repoActionTaskRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/actions/tasks',
    operationId: 'ListActionTasks',
    summary: "List a repository's action tasks",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    schema: 'ActionTaskResponse',
    errors: [400, 403, 404],
    load: ({ cx, params, page }) => listRepoTasks(cx, repoRef(params), page),
    convert: (result, { cx }) => ({ workflow_runs: result.items.map((x) => toApiTask(x, convertOptions(cx))), total_count: result.total }),
  }),
];
