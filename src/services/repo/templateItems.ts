// What a generated repository takes from its template besides git content (Gitea services/repository/
// generate.go and template.go: GenerateTopics, GenerateIssueLabels, GenerateWebhooks, GenerateProtectedBranch,
// GenerateAvatar, GenerateGitHooks).
import type { DbTx, Models } from '../../db/client.ts';
import { CUSTOM_HOOK_NAMES, readCustomHook, writeCustomHook } from '../../git/customHooks.ts';
import { copyAvatarFile } from '../avatar/store.ts';
import type { ServiceContext } from '../context.ts';
import { copyRepoTopics } from './topic.ts';

/** The template items asked for (Gitea GenerateRepoOptions without the git content). */
export interface TemplateItems {
  topics: boolean;
  labels: boolean;
  webhooks: boolean;
  protectedBranch: boolean;
  avatar: boolean;
  gitHooks: boolean;
}

/** Where the items go and come from. */
export interface TemplateCopy {
  template: Models.Repository;
  repo: Models.Repository;
  templateDir: string;
  gitdir: string;
}

/**
 * Copies the chosen items of `c.template` into `c.repo` inside the creating transaction: topics (with their
 * counters), labels (no issue counts), webhooks and branch protection rules (as they are, Gitea copies the
 * rows), the avatar file under the new repository's hash, and the repository's own git hook scripts unless
 * DISABLE_GIT_HOOKS is set.
 */
export async function copyTemplateItems(cx: ServiceContext, tx: DbTx, c: TemplateCopy, items: TemplateItems): Promise<void> {
  const from = c.template.id;
  const repoId = c.repo.id;
  if (items.topics) await copyRepoTopics(tx, from, repoId);
  if (items.labels) {
    const labels = await tx.label.findMany({ where: { repoId: from }, orderBy: { id: 'asc' } });
    await tx.label.createMany({
      data: labels.map((l) => ({
        repoId,
        name: l.name,
        exclusive: l.exclusive,
        exclusiveOrder: l.exclusiveOrder,
        description: l.description,
        color: l.color,
      })),
    });
  }
  if (items.webhooks) {
    const hooks = await tx.webhook.findMany({ where: { repoId: from }, orderBy: { id: 'asc' } });
    await tx.webhook.createMany({
      data: hooks.map(({ id: _id, createdAt: _c, updatedAt: _u, lastStatus: _s, ...hook }) => ({ ...hook, repoId })),
    });
  }
  if (items.protectedBranch) {
    const rules = await tx.protectedBranch.findMany({ where: { repoId: from }, orderBy: { id: 'asc' } });
    await tx.protectedBranch.createMany({
      data: rules.map(({ id: _id, createdAt: _c, updatedAt: _u, ...rule }) => ({ ...rule, repoId })),
    });
  }
  if (items.avatar && c.template.avatar) {
    const avatar = await copyAvatarFile(cx.config.avatars, 'repo', c.template.avatar, repoId);
    if (avatar) await tx.repository.update({ where: { id: repoId }, data: { avatar } });
  }
  if (items.gitHooks && !cx.config.disableGitHooks) {
    for (const name of CUSTOM_HOOK_NAMES) {
      const hook = await readCustomHook(c.templateDir, name);
      if (hook.content) await writeCustomHook(c.gitdir, name, hook.content);
    }
  }
}
