import type { z } from 'zod';
import { AddCollaboratorOption, RepoCollaboratorPermission } from './structs/collaborator.ts';
import { Attachment } from './structs/attachment.ts';
import { Comment, CreateIssueCommentOption, EditIssueCommentOption, TimelineComment } from './structs/comment.ts';
import { Cron } from './structs/cron.ts';
import { CreateKeyOption, DeployKey } from './structs/deployKey.ts';
import { CreateForkOption } from './structs/fork.ts';
import {
  Branch,
  ContentsResponse,
  FileLinksResponse,
  GitBlobResponse,
  PayloadCommit,
  PayloadCommitVerification,
  PayloadUser,
} from './structs/git.ts';
import { CreateIssueOption, EditIssueOption, Issue, Milestone, PullRequestMeta, RepositoryMeta } from './structs/issue.ts';
import { IssueAssigneesOption } from './structs/issueAssignee.ts';
import { IssueMeta } from './structs/issueDependency.ts';
import { IssueLabelsOption } from './structs/issueLabel.ts';
import { CreateLabelOption, EditLabelOption, Label } from './structs/label.ts';
import { CreateMilestoneOption, EditMilestoneOption } from './structs/milestone.ts';
import { CreateOrgOption, EditOrgOption, Organization } from './structs/org.ts';
import { Package, PackageFile } from './structs/package.ts';
import { CreateProjectOption, EditProjectOption, Project } from './structs/project.ts';
import {
  ChangedFile,
  Commit,
  CommitAffectedFiles,
  CommitMeta,
  CommitStats,
  CommitUser,
  CreatePullRequestOption,
  PRBranchInfo,
  PullRequest,
  RepoCommit,
} from './structs/pull.ts';
import { EditPullRequestOption, MergePullRequestOption } from './structs/pullMerge.ts';
import { EditReactionOption, Reaction } from './structs/reaction.ts';
import {
  CreateRepoOption,
  EditRepoOption,
  ExternalTracker,
  ExternalWiki,
  InternalTracker,
  Permission,
  RepoTransfer,
  Repository,
  SearchResults,
} from './structs/repo.ts';
import {
  CreatePullReviewComment,
  CreatePullReviewOptions,
  DismissPullReviewOptions,
  PullReview,
  PullReviewComment,
  PullReviewRequestOptions,
  SubmitPullReviewOptions,
} from './structs/review.ts';
import { APIError, GeneralAPISettings, GeneralRepoSettings, GeneralUISettings, ServerVersion } from './structs/settings.ts';
import { Team, CreateTeamOption, EditTeamOption } from './structs/team.ts';
import { AddTimeOption, StopWatch, TrackedTime } from './structs/trackedTime.ts';
import {
  AccessToken,
  CreateAccessTokenOption,
  CreateEmailOption,
  CreateUserOption,
  DeleteEmailOption,
  EditUserOption,
  Email,
  User,
  UserSearchResults,
} from './structs/user.ts';

/**
 * The shapes the API answers with, by Gitea's swagger names: the OpenAPI document names each one once and
 * refers to it wherever it appears (a route's response names one of these).
 */
export const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  APIError,
  AccessToken,
  Attachment,
  Branch,
  ChangedFile,
  Comment,
  Commit,
  CommitAffectedFiles,
  CommitMeta,
  CommitStats,
  CommitUser,
  ContentsResponse,
  Cron,
  DeployKey,
  Email,
  ExternalTracker,
  ExternalWiki,
  FileLinksResponse,
  GeneralAPISettings,
  GeneralRepoSettings,
  GeneralUISettings,
  GitBlobResponse,
  InternalTracker,
  Issue,
  Label,
  Milestone,
  Organization,
  PRBranchInfo,
  Package,
  PackageFile,
  PayloadCommit,
  PayloadCommitVerification,
  PayloadUser,
  Permission,
  Project,
  PullRequest,
  PullRequestMeta,
  PullReview,
  PullReviewComment,
  Reaction,
  RepoCollaboratorPermission,
  RepoCommit,
  RepoTransfer,
  Repository,
  RepositoryMeta,
  SearchResults,
  ServerVersion,
  StopWatch,
  Team,
  TimelineComment,
  TrackedTime,
  User,
  UserSearchResults,
};

/** The request bodies, by Gitea's swagger names (Forgegraph's own for the projects API). */
export const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  AddCollaboratorOption,
  AddTimeOption,
  CreateAccessTokenOption,
  CreateEmailOption,
  CreateForkOption,
  CreateIssueCommentOption,
  CreateIssueOption,
  CreateKeyOption,
  CreateLabelOption,
  CreateMilestoneOption,
  CreateOrgOption,
  CreateProjectOption,
  CreatePullRequestOption,
  CreatePullReviewComment,
  CreatePullReviewOptions,
  CreateRepoOption,
  CreateTeamOption,
  CreateUserOption,
  DeleteEmailOption,
  DismissPullReviewOptions,
  EditIssueCommentOption,
  EditIssueOption,
  EditLabelOption,
  EditMilestoneOption,
  EditOrgOption,
  EditProjectOption,
  EditPullRequestOption,
  EditReactionOption,
  EditRepoOption,
  EditTeamOption,
  EditUserOption,
  IssueAssigneesOption,
  IssueLabelsOption,
  IssueMeta,
  MergePullRequestOption,
  PullReviewRequestOptions,
  SubmitPullReviewOptions,
};
