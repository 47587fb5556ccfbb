// Fields of GitHub's Repository that gh asks for (`gh repo list`, `gh repo view --json …`, `gh pr edit`), answered
// from what Gitea's model has.
import { findAssignableUsers } from '../../services/pull/candidates.ts';
import { pullSettingsOf } from '../../services/pull/mergeSettings.ts';
import { avatarUrl } from '../../services/user/avatar.ts';
import { arrayConnection } from '../arrayConnection.ts';
import { builder } from '../builder.ts';
import { opt } from '../ids.ts';
import { checkedBy } from '../policy.ts';
import { PullRequestMergeMethodEnum } from './pullRequestMerge.ts';
import { RepositoryRef } from './repository.ts';
import { UserConnectionRef, UserRef } from './user.ts';

const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'] as const;
type MergeStyle = (typeof MERGE_STYLES)[number];
const UNITS = { units: { select: { type: true, config: true } } } as const;

builder.prismaObjectFields(RepositoryRef, (t) => ({
  deleteBranchOnMerge: t.boolean({
    description: "Whether a merge deletes the head branch by default (Gitea's default_delete_branch_after_merge).",
    select: UNITS,
    resolve: (r) => pullSettingsOf(r.units).defaultDeleteBranchAfterMerge === true,
  }),
  viewerDefaultMergeMethod: t.field({
    type: PullRequestMergeMethodEnum,
    description: "The repository's default merge style (Gitea's default_merge_style; the same for every viewer).",
    select: UNITS,
    resolve: (r): MergeStyle => {
      const style = pullSettingsOf(r.units).defaultMergeStyle;
      return MERGE_STYLES.find((s) => s === style) ?? 'merge';
    },
  }),
  hasDiscussionsEnabled: t.boolean({ description: 'Always false: Gitea has no discussions.', resolve: () => false }),
  isInOrganization: t.boolean({
    description: 'Whether an organization owns the repository.',
    select: { owner: { select: { type: true } } },
    resolve: (r) => r.owner.type === 'ORGANIZATION',
  }),
  isUserConfigurationRepository: t.boolean({
    description: "Whether this is its owner's profile repository (Gitea's `.profile`, whose README shows on the profile).",
    resolve: (r) => r.lowerName === '.profile',
  }),
  isSecurityPolicyEnabled: t.boolean({
    nullable: true,
    description: 'Always null: Gitea does not look for a security policy.',
    resolve: () => null,
  }),
  securityPolicyUrl: t.field({
    type: 'URI',
    nullable: true,
    description: 'Always null: Gitea does not look for a security policy.',
    resolve: () => null,
  }),
  openGraphImageUrl: t.field({
    type: 'URI',
    description: "The repository's avatar, else its owner's.",
    select: { owner: true },
    resolve: (r, _a, ctx) =>
      r.avatar ? `${ctx.cx.config.rootUrl}repo-avatars/${encodeURIComponent(r.avatar)}` : avatarUrl(r.owner, ctx.cx.config.rootUrl),
  }),
  usesCustomOpenGraphImage: t.boolean({ description: 'Whether the repository has an avatar of its own.', resolve: (r) => r.avatar !== '' }),
  pushedAt: t.expose('updatedAt', {
    type: 'DateTime',
    nullable: true,
    description: "When the repository was last pushed to: Gitea's updated time, which every push moves.",
  }),
  assignableUsers: t.connection(
    {
      type: UserRef,
      description:
        'Users who can be assigned to issues and pull requests (as GET /api/v1/repos/{owner}/{repo}/assignees: signed-in viewers only), by name.',
      args: { query: t.arg.string({ description: 'Only users whose login or name contains this.' }) },
      ...checkedBy('findAssignableUsers'),
      resolve: async (repo, args, ctx) => arrayConnection(args, await findAssignableUsers(ctx.cx, repo, opt(args.query))),
    },
    UserConnectionRef,
  ),
}));
