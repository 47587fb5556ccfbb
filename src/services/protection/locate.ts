import { NotFoundError } from '../../errors.ts';
import { isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { repoAdminWhere } from '../access/repoAdminWhere.ts';
import type { Models } from '../../db/client.ts';

/**
 * The read policy of branch protection rules on a readable repository: repository admins only (Gitea reqAdmin on
 * GET …/branch_protections): the test manage.ts's gate (requireAdminRepo) makes, for lists that read the rules of
 * many repositories at once (the graph's Repository.branchProtectionRules).
 */
export function canReadBranchProtections(perm: RepoPermission): boolean {
  return isRepoAdmin(perm);
}

/** The same policy as one Prisma filter, for node(id:): the rules of repositories the viewer administers. */
export function branchProtectionReadWhere(cx: ServiceContext): Models.Prisma.ProtectedBranchWhereInput {
  return { repo: repoAdminWhere(cx) };
}

/**
 * Where the rule with id `ruleId` lives (its repository and name), for the doors that name rules by id; the
 * caller then goes through manage.ts, whose gate answers NotFound for a repository the viewer may not see.
 * @throws NotFoundError
 */
export async function locateBranchProtection(cx: ServiceContext, ruleId: number): Promise<{ ref: RepoRef; name: string }> {
  const row = await cx.db.protectedBranch.findUnique({
    where: { id: ruleId },
    select: { ruleName: true, repo: { select: { ownerName: true, name: true } } },
  });
  if (!row) throw new NotFoundError('not found', { ruleId });
  return { ref: { owner: row.repo.ownerName, repo: row.repo.name }, name: row.ruleName };
}
