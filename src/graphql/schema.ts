import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import { prepareForCompiledExecution } from './compiledExecution.ts';
import { recordPlainLeaves } from './plainLeaves.ts';
import { ISSUE_PAGE_FIELDS } from './preload/issue.ts';
import { servePreloadedPages } from './preload/preloadedPages.ts';
import { queryImplementsNode } from './queryNode.ts';
import { enforceTokenReadScopes } from './tokenReadScopes.ts';
import './types/user.ts';
import './types/follow.ts';
import './types/accessToken.ts';
import './types/publicKey.ts';
import './types/organization.ts';
import './types/repository.ts';
import './types/ref.ts';
import './types/repositoryCollaborators.ts';
import './types/repositoryMutations.ts';
import './types/cloneTemplateRepository.ts';
import './types/repositoryGithub.ts';
import './types/topic.ts';
import './types/repositoryTransfer.ts';
import './types/language.ts';
import './types/gitObject.ts';
import './types/commitSignature.ts';
import './types/gitMutations.ts';
import './types/issue.ts';
import './types/issueMutations.ts';
import './types/issueComment.ts';
import './types/issueLockPin.ts';
import './types/issueAssignment.ts';
import './types/milestone.ts';
import './types/release.ts';
import './types/project.ts';
import './types/projectLists.ts';
import './types/projectMutations.ts';
import './types/projectV2.ts';
import './types/issueDependency.ts';
import './types/reaction.ts';
import './types/trackedTime.ts';
import './types/fork.ts';
import './types/mirror.ts';
import './types/pullRequest.ts';
import './types/pullRequestLists.ts';
import './types/pullRequestCreate.ts';
import './types/timelineEvents.ts';
import './types/timelineSubject.ts';
import './types/timelineConnection.ts';
import './types/issueOrPullRequest.ts';
import './types/authorAssociation.ts';
import './types/pullRequestMerge.ts';
import './types/pullRequestReview.ts';
import './types/pullRequestReviewMutations.ts';
import './types/team.ts';
import './types/teamLists.ts';
import './types/label.ts';
import './types/block.ts';
import './types/cron.ts';
import './types/star.ts';
import './types/notification.ts';
import './types/webhook.ts';
import './types/activity.ts';
import './types/liveEvents.ts';
import './types/package.ts';
import './types/branchProtection.ts';
import './types/pushAllowance.ts';
import './types/pullRequestAutoMerge.ts';
import './types/commitStatus.ts';
import './types/actions.ts';
import './types/checkRun.ts';
import './types/search.ts';
import './types/bodyHTML.ts';

/** The executable schema (importing this file registers every type). */
export const schema: GraphQLSchema = recordPlainLeaves(
  prepareForCompiledExecution(enforceTokenReadScopes(queryImplementsNode(servePreloadedPages(builder.toSchema(), ISSUE_PAGE_FIELDS)))),
);

/** The SDL as committed in schema.graphql: sorted, so diffs are stable. */
export function printSortedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
