// A repository's tasks, newest first (Gitea routers/api/v1/repo/action.go ListActionTasks: FindTaskOptions by
// repository, ordered by id descending), each with its job and run; readers of the Actions unit may list them.
import type { Models } from '../../db/client.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { requireActionsRead } from './repoActions.ts';

const TASK_INCLUDE = {
  job: {
    select: {
      name: true,
      commitSha: true,
      run: { select: { id: true, index: true, ref: true, triggerEvent: true, title: true, workflowId: true } },
    },
  },
  repo: { select: { ownerName: true, name: true } },
} as const satisfies Models.Prisma.ActionTaskInclude;

/** A task with what its JSON shows (Gitea ToActionTask). */
export type TaskView = Models.Prisma.ActionTaskGetPayload<{ include: typeof TASK_INCLUDE }>;

/** GET /repos/{owner}/{repo}/actions/tasks. @throws NotFoundError (no repository, or no Actions read) */
export async function listRepoTasks(cx: ServiceContext, ref: RepoRef, page: ListOptions): Promise<Page<TaskView>> {
  const { repo } = await requireActionsRead(cx, ref);
  const where = { repoId: repo.id };
  const [items, total] = await Promise.all([
    cx.db.actionTask.findMany({ where, include: TASK_INCLUDE, orderBy: { id: 'desc' }, ...skipTake(page) }),
    cx.db.actionTask.count({ where }),
  ]);
  return { items, total };
}
