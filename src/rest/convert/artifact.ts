import type { Models } from '../../db/client.ts';
import type { ActionArtifact } from '../structs/artifact.ts';
import { apiTime, UNIX_ZERO } from './time.ts';
import type { ConvertOptions } from './user.ts';

/** Gitea ToActionArtifact: `url` under the repository's API, the zip at `url` + "/zip". */
export function toApiArtifact(
  art: Models.ActionArtifact,
  repo: Pick<Models.Repository, 'ownerName' | 'name'>,
  opts: ConvertOptions,
): ActionArtifact {
  const url = `${opts.rootUrl}api/v1/repos/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}/actions/artifacts/${art.id}`;
  return {
    id: art.id,
    name: art.name,
    size_in_bytes: Number(art.size),
    url,
    archive_download_url: `${url}/zip`,
    expired: art.status === 'EXPIRED',
    workflow_run: { id: art.runId, repository_id: art.repoId, head_sha: art.commitSha },
    created_at: apiTime(art.createdAt),
    updated_at: apiTime(art.updatedAt),
    expires_at: art.expiresAt ? apiTime(art.expiresAt) : UNIX_ZERO,
  };
}
