import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { repoPath } from '../../git/repoPath.ts';
import { canRead, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireWriter } from '../access/guards.ts';
import { requireRepo, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { findUserByName } from '../user/user.ts';
import { createRepo, ownerRefFor } from './create.ts';
import type { RepoWithPermission } from './repoRows.ts';
import { generateGitContent } from './templateContent.ts';
import { copyTemplateItems, type TemplateItems } from './templateItems.ts';

/** Gitea's GenerateRepoOption. */
export interface GenerateRepoInput extends Partial<TemplateItems> {
  /** The user or organization that will own the new repository. */
  owner: string;
  name: string;
  description?: string;
  private?: boolean;
  /** The new default branch; the template's when empty. */
  defaultBranch?: string;
  /** The template's default-branch tree as the first commit (expanded by `.gitea/template`). */
  gitContent?: boolean;
}

/**
 * Gitea Generate's owner rule: the viewer, or (by name, 404 when there is none) an organization or, for site
 * admins, any user. Whether the viewer may create in the organization is createRepo's check.
 */
async function generateOwner(cx: ServiceContext, viewer: Models.User, name: string): Promise<Models.User> {
  if (name === viewer.name) return viewer;
  const owner = await findUserByName(cx.db, name);
  if (!owner) throw new NotFoundError(`request owner \`${name}\` does not exist`, { name });
  if (!viewer.isAdmin && owner.type !== 'ORGANIZATION' && owner.id !== viewer.id) {
    throw new PermissionDeniedError('Only admin can generate repository for other user.');
  }
  return owner;
}

/**
 * POST /repos/{template_owner}/{template_repo}/generate (Gitea Generate → GenerateRepository): a new
 * repository made from a template.
 * - gates: the token's repository write scope; a template the viewer can see (404) and read the code of (403);
 *   then, in Gitea's order, 422 `this is not a template repo`, 422 for an organization as viewer, 422 `must
 *   select at least one template item`, the owner (generateOwner), and everything repository creation checks
 *   (createRepo: organization membership and create permission, name rules 422, name taken 409, limits);
 * - the new row records its template and takes its trust model and object format; git content, topics, labels,
 *   webhooks, branch protection, avatar and git hooks are copied as asked, all inside the creating transaction
 *   (templateContent.ts, templateItems.ts), so a failure leaves neither row nor directory.
 * Returns the repository with the owner's permission.
 * @throws UnauthenticatedError, NotFoundError, PermissionDeniedError, ValidationError, InvalidArgumentError, AlreadyExistsError
 */
export async function generateRepo(cx: ServiceContext, templateRef: RepoRef, input: GenerateRepoInput): Promise<RepoWithPermission> {
  const viewer = requireWriter(cx, 'write:repository');
  const { repo: template, perm } = await requireRepo(cx, templateRef.owner, templateRef.repo);
  if (!canRead(perm, 'CODE') && !isRepoAdmin(perm)) {
    throw new PermissionDeniedError('user should have specific read permission or be a repo admin or a site admin');
  }
  if (!template.isTemplate) throw new ValidationError('this is not a template repo', { repoId: template.id });
  if (viewer.type === 'ORGANIZATION') throw new ValidationError('not allowed creating repository for organization');
  const items: TemplateItems = {
    topics: input.topics ?? false,
    labels: input.labels ?? false,
    webhooks: input.webhooks ?? false,
    protectedBranch: input.protectedBranch ?? false,
    avatar: input.avatar ?? false,
    gitHooks: input.gitHooks ?? false,
  };
  const gitContent = input.gitContent ?? false;
  if (!gitContent && !Object.values(items).some(Boolean)) throw new ValidationError('must select at least one template item');
  const owner = await generateOwner(cx, viewer, input.owner);
  const templateDir = repoPath(cx.config.repositoriesDir, template.ownerName, template.name);

  return createRepo(
    cx,
    ownerRefFor(viewer, owner),
    {
      name: input.name,
      description: input.description ?? '',
      private: input.private ?? false,
      defaultBranch: input.defaultBranch || template.defaultBranch,
      objectFormatName: template.objectFormatName,
    },
    {
      data: { templateId: template.id, trustModel: template.trustModel },
      inTx: async (tx, repo) => {
        const gitdir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
        if (gitContent && !template.isEmpty) {
          await generateGitContent(cx, tx, { template, repo, owner, templateDir, gitdir, pusherId: viewer.id });
        }
        await copyTemplateItems(cx, tx, { template, repo, templateDir, gitdir }, items);
      },
    },
  );
}
