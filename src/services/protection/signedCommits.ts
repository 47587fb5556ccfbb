// Branch protection's `require_signed_commits` (Gitea preReceiveBranch step 3 and VerifyBranchProtection): a
// push may bring only commits whose signatures verify, and the server, which signs nothing (no signing key is
// configured), cannot write commits to such a branch through the API.
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import type { CommitSignature } from '../../git/commitSignature.ts';
import type { ServiceContext } from '../context.ts';
import { verifySignatures } from '../gpg/verifyCommits.ts';
import type { ProtectionRule } from './rule.ts';

/**
 * Refuses the first commit (newest first) a push brings to `branch` whose signature does not verify, with
 * Gitea's text.
 * @throws PermissionDeniedError
 */
export async function requireVerifiedCommits(
  cx: ServiceContext,
  rule: ProtectionRule,
  branch: string,
  pushed: () => Promise<CommitSignature[]>,
): Promise<void> {
  if (!rule.row.requireSignedCommits) return;
  const commits = await pushed();
  const verified = await verifySignatures(cx, commits);
  const bad = commits.find((c) => !verified.get(c.sha)?.verified);
  if (bad) throw new PermissionDeniedError(`branch ${branch} is protected from unverified commit ${bad.sha}`, { branch, sha: bad.sha });
}

/**
 * A commit the server would make on a branch requiring signed commits cannot be signed (Gitea SignCRUDAction
 * without a signing key → ErrUserCannotCommit).
 * @throws PermissionDeniedError
 */
export function requireServerMaySign(rule: ProtectionRule, doer: Models.User, branch: string): void {
  if (rule.row.requireSignedCommits)
    throw new PermissionDeniedError(`user cannot commit to repo [user: ${doer.name.toLowerCase()}]`, { branch });
}
