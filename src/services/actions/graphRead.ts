// The read side of Actions for doors that load runs and jobs of many repositories at once (the graph): the same
// policy as the REST routes (repoActions.ts requireActionsRead: the Actions unit readable) and the same filters as
// Gitea's ListRuns, as a Prisma where the caller batches.
import type { Models } from '../../db/client.ts';
import { canRead, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { runFilterWhere } from './lists.ts';

/** Runs and jobs of a readable repository are visible with its Actions unit (GET …/actions/runs). */
export function canReadActions(perm: RepoPermission): boolean {
  return canRead(perm, 'ACTIONS');
}

/** The read policy of runs as a filter (canReadActions as SQL): runs of repositories whose Actions unit the viewer can read. */
export function actionRunReadWhere(cx: ServiceContext): Models.Prisma.ActionRunWhereInput {
  return { repo: repoReadWhere(cx, ['ACTIONS']) };
}

/** The read policy of jobs as a filter: jobs of repositories whose Actions unit the viewer can read. */
export function actionJobReadWhere(cx: ServiceContext): Models.Prisma.ActionRunJobWhereInput {
  return { repo: repoReadWhere(cx, ['ACTIONS']) };
}

/** The filters of a repository's runs list (Gitea ListRuns: `status`, `event`, `branch`). */
export interface RunListFilter {
  status?: string | null;
  event?: string | null;
  branch?: string | null;
}

/** The where of the filters: the REST list's (lists.ts). @throws InvalidArgumentError "invalid status <x>" (as REST's 400) */
export function runListWhere(filter: RunListFilter): Models.Prisma.ActionRunWhereInput {
  return runFilterWhere({ status: filter.status ? [filter.status] : [], event: filter.event ?? '', branch: filter.branch ?? '' });
}
