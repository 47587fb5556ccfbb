import type { RouteDef } from '../route.ts';
import { adminActionsRoutes } from './admin/actions.ts';
import { actionOwnerListRoutes } from './misc/actionLists.ts';
import { actionRunnerRoutes } from './misc/actionRunners.ts';
import { actionSettingRoutes } from './misc/actionSettings.ts';
import { adminCronRoutes } from './admin/cron.ts';
import { adminEmailRoutes } from './admin/emails.ts';
import { adminKeyRoutes } from './admin/keys.ts';
import { adminUserRoutes } from './admin/users.ts';
import { adminBadgeRoutes } from './admin/badges.ts';
import { adminUnadoptedRoutes } from './admin/unadopted.ts';
import { hookDeliveryRoutes } from './hooks/deliveries.ts';
import { hookRoutes } from './hooks/hooks.ts';
import { activityFeedRoutes } from './misc/activityFeeds.ts';
import { markupRoutes } from './misc/markup.ts';
import { avatarRoutes } from './misc/avatars.ts';
import { miscRoutes } from './misc/misc.ts';
import { signingKeyRoutes } from './misc/signingKey.ts';
import { templateRoutes } from './misc/templates.ts';
import { orgBlockRoutes } from './org/blocks.ts';
import { packageRoutes } from './package/packages.ts';
import { orgLabelRoutes } from './org/labels.ts';
import { memberRoutes } from './org/members.ts';
import { orgRoutes } from './org/orgs.ts';
import { teamRoutes } from './org/teams.ts';
import { branchRoutes, branchWriteRoutes } from './repo/branches.ts';
import { collaboratorRoutes } from './repo/collaborators.ts';
import { repoCandidateRoutes } from './repo/candidates.ts';
import { repoTeamRoutes } from './repo/teams.ts';
import { repoEditRoutes } from './repo/edit.ts';
import { deployKeyRoutes } from './repo/keys.ts';
import { issueRoutes } from './repo/issues.ts';
import { issueAssigneeRoutes } from './repo/issueAssignees.ts';
import { issueLabelRoutes } from './repo/issueLabels.ts';
import { milestoneRoutes } from './repo/milestones.ts';
import { projectRoutes } from './repo/projects.ts';
import { issueDependencyRoutes } from './repo/issueDependencies.ts';
import { issueCommentRoutes } from './repo/issueComments.ts';
import { issueReactionRoutes } from './repo/issueReactions.ts';
import { issuePinRoutes } from './repo/issuePins.ts';
import { trackedTimeRoutes } from './repo/times.ts';
import { forkRoutes } from './repo/forks.ts';
import { generateRoutes } from './repo/generate.ts';
import { gitHookRoutes } from './repo/gitHooks.ts';
import { migrateRoutes } from './repo/migrate.ts';
import { mirrorRoutes } from './repo/mirrors.ts';
import { pullRoutes } from './repo/pulls.ts';
import { pullMergeRoutes } from './repo/pullMerge.ts';
import { branchProtectionRoutes } from './repo/branchProtections.ts';
import { commitStatusRoutes } from './repo/commitStatuses.ts';
import { pullReviewRoutes } from './repo/pullReviews.ts';
import { pullReviewCommentRoutes } from './repo/pullReviewComments.ts';
import { repoLabelRoutes } from './repo/labels.ts';
import { contentsRoutes } from './repo/contents.ts';
import { contentsExtRoutes } from './repo/contentsExt.ts';
import { editorConfigRoutes } from './repo/editorconfig.ts';
import { gitRoutes } from './repo/git.ts';
import { commitRoutes } from './repo/commits.ts';
import { contentsWriteRoutes } from './repo/contentsWrite.ts';
import { downloadRoutes } from './repo/download.ts';
import { issueAttachmentRoutes } from './repo/issueAttachments.ts';
import { releaseAssetRoutes } from './repo/releaseAssets.ts';
import { releaseRoutes } from './repo/releases.ts';
import { repoActionsRoutes } from './repo/actions.ts';
import { repoActionArtifactRoutes } from './repo/actionArtifacts.ts';
import { repoActionAttemptRoutes } from './repo/actionAttempts.ts';
import { repoActionWorkflowRoutes } from './repo/actionWorkflows.ts';
import { repoActionTaskRoutes } from './repo/actionTasks.ts';
import { tagRoutes } from './repo/tags.ts';
import { tagProtectionRoutes } from './repo/tagProtections.ts';
import { repoRoutes } from './repo/repos.ts';
import { repoSearchRoutes } from './repo/search.ts';
import { topicRoutes } from './repo/topics.ts';
import { wikiRoutes } from './repo/wiki.ts';
import { transferRoutes } from './repo/transfer.ts';
import { issueTemplateRoutes } from './repo/issueTemplates.ts';
import { languageRoutes } from './repo/languages.ts';
import { repoLicenseRoutes } from './repo/licenses.ts';
import { userBlockRoutes } from './user/blocks.ts';
import { followRoutes } from './user/follows.ts';
import { heatmapRoutes } from './user/heatmap.ts';
import { emailRoutes } from './user/emails.ts';
import { userKeyRoutes } from './user/keys.ts';
import { gpgKeyRoutes } from './user/gpgKeys.ts';
import { tokenRoutes } from './user/tokens.ts';
import { oauth2Routes } from './user/oauth2.ts';
import { userRoutes } from './user/users.ts';
import { notificationRoutes } from './user/notifications.ts';
import { starredRoutes } from './user/starred.ts';
import { subscriptionRoutes } from './repo/subscriptions.ts';

/** Every /api/v1 operation we serve; the router and the OpenAPI document are both built from this list. */
export const allRoutes: readonly RouteDef[] = [
  ...repoSearchRoutes,
  ...repoRoutes,
  ...miscRoutes,
  ...signingKeyRoutes,
  ...templateRoutes,
  ...markupRoutes,
  ...avatarRoutes,
  ...adminUserRoutes,
  ...adminBadgeRoutes,
  ...adminUnadoptedRoutes,
  ...adminEmailRoutes,
  ...adminKeyRoutes,
  ...adminCronRoutes,
  ...adminActionsRoutes,
  ...actionRunnerRoutes,
  ...actionOwnerListRoutes,
  ...actionSettingRoutes,
  ...repoActionsRoutes,
  ...repoActionAttemptRoutes,
  ...repoActionArtifactRoutes,
  ...repoActionWorkflowRoutes,
  ...repoActionTaskRoutes,
  ...userRoutes,
  ...tokenRoutes,
  ...oauth2Routes,
  ...emailRoutes,
  ...userKeyRoutes,
  ...gpgKeyRoutes,
  ...orgRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...userBlockRoutes,
  ...followRoutes,
  ...heatmapRoutes,
  ...orgBlockRoutes,
  ...orgLabelRoutes,
  ...repoEditRoutes,
  ...topicRoutes,
  ...wikiRoutes,
  ...transferRoutes,
  ...issueTemplateRoutes,
  ...languageRoutes,
  ...repoLicenseRoutes,
  ...collaboratorRoutes,
  ...repoCandidateRoutes,
  ...repoTeamRoutes,
  ...deployKeyRoutes,
  ...repoLabelRoutes,
  ...issueRoutes,
  ...issueAssigneeRoutes,
  ...issueLabelRoutes,
  ...milestoneRoutes,
  ...projectRoutes,
  ...issueDependencyRoutes,
  ...issueCommentRoutes,
  ...issueReactionRoutes,
  ...issuePinRoutes,
  ...trackedTimeRoutes,
  ...forkRoutes,
  ...generateRoutes,
  ...gitHookRoutes,
  ...migrateRoutes,
  ...mirrorRoutes,
  ...pullRoutes,
  ...pullMergeRoutes,
  ...pullReviewRoutes,
  ...pullReviewCommentRoutes,
  ...branchRoutes,
  ...branchWriteRoutes,
  ...branchProtectionRoutes,
  ...commitStatusRoutes,
  ...contentsRoutes,
  ...contentsExtRoutes,
  ...editorConfigRoutes,
  ...contentsWriteRoutes,
  ...gitRoutes,
  ...subscriptionRoutes,
  ...starredRoutes,
  ...notificationRoutes,
  ...commitRoutes,
  ...downloadRoutes,
  ...releaseRoutes,
  ...releaseAssetRoutes,
  ...tagRoutes,
  ...tagProtectionRoutes,
  ...issueAttachmentRoutes,
  ...hookRoutes,
  ...hookDeliveryRoutes,
  ...activityFeedRoutes,
  ...packageRoutes,
] as readonly RouteDef[];
