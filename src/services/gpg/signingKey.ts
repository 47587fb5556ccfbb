// The instance's commit signing key (Gitea [repository.signing]). Forgegraph does not sign the commits it makes
// (merges, file writes), so no signing key is configured: Gitea's answer is then 404 "no signing key".
import { NotFoundError } from '../../errors.ts';
import { requireRepo, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';

/**
 * The public signing key of the instance, or of a repository the viewer may read (Gitea getSigningKey).
 * @throws NotFoundError ("no signing key"; a repository the viewer cannot read is not found either)
 */
export async function getSigningKey(cx: ServiceContext, repo: RepoRef | null): Promise<string> {
  if (repo) await requireRepo(cx, repo.owner, repo.repo);
  throw new NotFoundError('no signing key');
}
