import type { DeployKeyView } from '../../services/repo/deployKey.ts';
import type { DeployKey } from '../structs/deployKey.ts';
import { toApiRepository } from './repo.ts';
import { apiTime } from './time.ts';
import type { ConvertOptions } from './user.ts';

/** Gitea convert.ToDeployKey (+ appendPrivateInformation's `repository` when the service loaded it). */
export function toApiDeployKey(view: DeployKeyView, opts: ConvertOptions): DeployKey {
  const { key, repo, repository } = view;
  return {
    id: key.id,
    key_id: key.keyId,
    key: key.key.content,
    url: `${opts.rootUrl}api/v1/repos/${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}/keys/${key.id}`,
    title: key.name,
    fingerprint: key.fingerprint,
    created_at: apiTime(key.createdAt),
    read_only: key.mode === 'READ',
    ...(repository ? { repository: toApiRepository(repository.repo, repository.repo.owner, repository.perm, opts) } : {}),
  };
}

/** A list of deploy keys. */
export function toApiDeployKeyList(views: readonly DeployKeyView[], opts: ConvertOptions): DeployKey[] {
  return views.map((v) => toApiDeployKey(v, opts));
}
