// Gitea's actions statuses (models/actions/status.go): the run's roll-up of its jobs and the API's names.
import type { Models } from '../../db/client.ts';

type Status = Models.ActionStatus;

/** Finished: the job or run will not change any more. */
export const DONE_STATUSES: readonly Status[] = ['SUCCESS', 'FAILURE', 'CANCELLED', 'SKIPPED'];

export const isDone = (s: Status): boolean => DONE_STATUSES.includes(s);

/** Gitea's AggregateJobStatus: the run's status from its jobs' statuses. */
export function aggregateStatus(statuses: readonly Status[]): Status {
  if (!statuses.length) return 'UNKNOWN';
  if (statuses.every((s) => s === 'SKIPPED')) return 'SKIPPED';
  if (statuses.every((s) => s === 'SUCCESS' || s === 'SKIPPED')) return 'SUCCESS';
  for (const s of ['CANCELLING', 'RUNNING', 'WAITING', 'BLOCKED'] as const) if (statuses.includes(s)) return s;
  if (statuses.includes('CANCELLED')) return 'CANCELLED';
  if (statuses.includes('FAILURE')) return 'FAILURE';
  return 'UNKNOWN';
}

/** The API's `status` and `conclusion` (convert.ToActionsStatus). */
export function apiStatus(s: Status): { status: string; conclusion: string } {
  switch (s) {
    case 'WAITING':
      return { status: 'queued', conclusion: '' };
    case 'BLOCKED':
      return { status: 'waiting', conclusion: '' };
    case 'RUNNING':
    case 'CANCELLING':
      return { status: 'in_progress', conclusion: '' };
    case 'SUCCESS':
    case 'FAILURE':
    case 'CANCELLED':
    case 'SKIPPED':
      return { status: 'completed', conclusion: s.toLowerCase() };
    default:
      return { status: 'unknown', conclusion: '' };
  }
}

/** The internal statuses an API `status` filter value stands for (shared/action.go convertToInternal); null = invalid. */
export function statusesOfFilter(value: string): Status[] | null {
  switch (value) {
    case 'pending':
    case 'waiting':
    case 'requested':
    case 'action_required':
      return ['BLOCKED'];
    case 'queued':
      return ['WAITING'];
    case 'in_progress':
      return ['RUNNING'];
    case 'completed':
      return ['SUCCESS', 'FAILURE', 'SKIPPED', 'CANCELLED'];
    case 'failure':
      return ['FAILURE'];
    case 'success':
      return ['SUCCESS'];
    case 'skipped':
    case 'neutral':
      return ['SKIPPED'];
    case 'cancelled':
    case 'timed_out':
      return ['CANCELLED'];
    default:
      return null;
  }
}

/** runner.v1.Result numbers (0 = unspecified) ↔ statuses. */
const RESULTS: readonly Status[] = ['UNKNOWN', 'SUCCESS', 'FAILURE', 'CANCELLED', 'SKIPPED'];

export const statusOfResult = (result: number): Status => RESULTS[result] ?? 'UNKNOWN';

/** The Result a status answers with (only finished statuses have one). */
export function resultOfStatus(s: Status): number {
  const i = RESULTS.indexOf(s);
  return i > 0 ? i : 0;
}
