// Gitea's work-in-progress (draft) pull requests: a title prefix, not a column.
import type { Models } from '../../db/client.ts';
import { startsWithInsensitive } from '../../db/filters.ts';
import type { DbProvider } from '../../db/migrate/engine.ts';

/** Gitea's default WIP prefixes (pull_request.work_in_progress_prefixes). */
const WIP_PREFIXES = ['WIP:', '[WIP]'];

/** Gitea PullRequest.IsWorkInProgress: the title starts with a WIP prefix (case-insensitive). */
export function isWorkInProgress(title: string): boolean {
  const t = title.toUpperCase();
  return WIP_PREFIXES.some((p) => t.startsWith(p));
}

/** The title without its work-in-progress prefix (Gitea's "remove WIP prefix" action), trimmed. */
export function withoutWipPrefix(title: string): string {
  const t = title.toUpperCase();
  const prefix = WIP_PREFIXES.find((p) => t.startsWith(p));
  return prefix ? title.slice(prefix.length).trim() : title;
}

/** The title marked as work in progress with Gitea's first prefix ("WIP: title"); unchanged when already marked. */
export function withWipPrefix(title: string): string {
  return isWorkInProgress(title) ? title : `${WIP_PREFIXES[0]} ${title}`;
}

/** isWorkInProgress as a filter on issue titles. */
export function workInProgressWhere(provider: DbProvider): Models.Prisma.IssueWhereInput {
  return { OR: WIP_PREFIXES.map((p) => ({ title: startsWithInsensitive(provider, p) })) };
}
