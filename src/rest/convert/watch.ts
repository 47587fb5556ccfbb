import type { Models } from '../../db/client.ts';
import type { WatchInfo } from '../structs/watch.ts';
import { apiTime } from './time.ts';
import type { ConvertOptions } from './user.ts';

const repoApiUrl = (repo: Pick<Models.Repository, 'ownerName' | 'name'>, opts: ConvertOptions): string =>
  `${opts.rootUrl}api/v1/repos/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;

/** Gitea's WatchInfo of a repository subscription: `created_at` is the repository's creation (sic), reason null. */
export function toApiRepoWatchInfo(repo: Models.Repository, mode: Models.WatchMode, opts: ConvertOptions): WatchInfo {
  const url = repoApiUrl(repo, opts);
  return {
    subscribed: mode === 'NORMAL' || mode === 'AUTO',
    ignored: mode === 'DONT',
    reason: null,
    created_at: apiTime(repo.createdAt),
    url: `${url}/subscription`,
    repository_url: url,
  };
}

/** Gitea CheckIssueSubscription's WatchInfo: `ignored` is the negation of `subscribed`; `created_at` the issue's. */
export function toApiIssueWatchInfo(repo: Models.Repository, issue: Models.Issue, watching: boolean, opts: ConvertOptions): WatchInfo {
  const url = repoApiUrl(repo, opts);
  return {
    subscribed: watching,
    ignored: !watching,
    reason: null,
    created_at: apiTime(issue.createdAt),
    url: `${url}/issues/${issue.index}/subscriptions`,
    repository_url: url,
  };
}
