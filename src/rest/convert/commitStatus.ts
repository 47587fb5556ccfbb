import type { Models } from '../../db/client.ts';
import type { CombinedStatusView, CommitStatusView } from '../../services/status/commitStatus.ts';
import type { CombinedStatus, CommitStatus } from '../structs/commitStatus.ts';
import { goPathEscape } from './git.ts';
import type { ConvertOptions } from './user.ts';
import { toApiRepository } from './repo.ts';
import { apiTime } from './time.ts';
import { toApiUser } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

const repoApi = (repo: Models.Repository, rootUrl: string) =>
  `${rootUrl}api/v1/repos/${goPathEscape(repo.ownerName)}/${goPathEscape(repo.name)}`;

/** Gitea ToCommitStatus. */
export function toApiCommitStatus(repo: Models.Repository, s: CommitStatusView, viewer: Viewer, opts: ConvertOptions): CommitStatus {
  return {
    id: s.index,
    status: s.state,
    target_url: s.targetUrl,
    description: s.description,
    url: `${repoApi(repo, opts.rootUrl)}/statuses/${goPathEscape(s.sha)}`,
    context: s.context,
    creator: s.creator ? toApiUser(s.creator, viewer, opts) : null,
    created_at: apiTime(s.createdAt),
    updated_at: apiTime(s.updatedAt),
  };
}

/** Gitea ToCombinedStatus. */
export function toApiCombinedStatus(v: CombinedStatusView, viewer: Viewer, opts: ConvertOptions): CombinedStatus {
  const api = repoApi(v.repo.repo, opts.rootUrl);
  return {
    state: v.state,
    sha: v.sha,
    total_count: v.total,
    statuses: v.statuses.map((s) => toApiCommitStatus(v.repo.repo, s, viewer, opts)),
    repository: toApiRepository(v.repo.repo, v.repo.repo.owner, v.repo.perm, opts),
    commit_url: `${api}/commits/${v.sha}`,
    url: `${api}/commits/${v.sha}/status`,
  };
}
