import type { z } from 'zod';
import { AddCollaboratorOption, RepoCollaboratorPermission } from './structs/collaborator.ts';
import { Attachment } from './structs/attachment.ts';
import {
  BranchProtection,
  CreateBranchProtectionOption,
  EditBranchProtectionOption,
  UpdateBranchProtectionPriories,
} from './structs/branchProtection.ts';
import { CombinedStatus, CommitStatus, CreateStatusOption } from './structs/commitStatus.ts';
import { CreateReleaseOption, EditAttachmentOptions, EditReleaseOption, Release } from './structs/release.ts';
import { AnnotatedTag, AnnotatedTagObject, CreateTagOption, Tag } from './structs/tag.ts';
import { Comment, CreateIssueCommentOption, EditIssueCommentOption, TimelineComment } from './structs/comment.ts';
import {
  ActionRunner,
  ActionRunnersResponse,
  ActionTask,
  ActionTaskResponse,
  ActionWorkflowJob,
  ActionWorkflowJobsResponse,
  ActionWorkflowRun,
  ActionWorkflowRunsResponse,
  CreateActionWorkflowDispatch,
  ActionVariable,
  ActionWorkflow,
  ActionWorkflowResponse,
  CreateOrUpdateSecretOption,
  CreateVariableOption,
  EditActionRunnerOption,
  RegistrationToken,
  Secret,
  UpdateVariableOption,
} from './structs/actions.ts';
import { Cron } from './structs/cron.ts';
import { CreateHookOption, EditHookOption, Hook, HookDelivery, HookDeliverySummary } from './structs/hook.ts';
import { CreateKeyOption, DeployKey } from './structs/deployKey.ts';
import { CreateForkOption } from './structs/fork.ts';
import { CreatePushMirrorOption, MigrateRepoOptions, PushMirror } from './structs/migration.ts';
import { PublicKey } from './structs/publicKey.ts';
import { RepoTopicOptions, TopicName, TopicResponse, TopicSearchResults } from './structs/topic.ts';
import { TransferRepoOption } from './structs/transfer.ts';
import { LanguageStatistics } from './structs/language.ts';
import {
  ChangeFileOperation,
  ChangeFilesOptions,
  CommitDateOptions,
  Compare,
  CreateBranchRepoOption,
  CreateFileOptions,
  DeleteFileOptions,
  FileCommitResponse,
  FileResponse,
  FilesResponse,
  GitEntry,
  GitObject,
  GitTreeResponse,
  Identity,
  Reference,
  RenameBranchRepoOption,
  UpdateFileOptions,
} from './structs/files.ts';
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
import { LockIssueOption, NewIssuePinsAllowed } from './structs/issuePin.ts';
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
import { NotificationCount, NotificationSubject, NotificationThread } from './structs/notification.ts';
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
import {
  APIError,
  GeneralAPISettings,
  GeneralAttachmentSettings,
  GeneralRepoSettings,
  GeneralUISettings,
  ServerVersion,
} from './structs/settings.ts';
import { Activity } from './structs/activity.ts';
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
import { WatchInfo } from './structs/watch.ts';

/**
 * The shapes the API answers with, by Gitea's swagger names: the OpenAPI document names each one once and
 * refers to it wherever it appears (a route's response names one of these).
 */
export const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  PushMirror,
  APIError,
  ActionRunner,
  ActionRunnersResponse,
  ActionTask,
  ActionTaskResponse,
  ActionWorkflowJob,
  ActionWorkflowJobsResponse,
  ActionWorkflowRun,
  ActionWorkflowRunsResponse,
  RegistrationToken,
  Secret,
  ActionVariable,
  ActionWorkflow,
  ActionWorkflowResponse,
  AccessToken,
  AnnotatedTag,
  BranchProtection,
  CombinedStatus,
  CommitStatus,
  AnnotatedTagObject,
  Activity,
  Attachment,
  Branch,
  ChangedFile,
  Comment,
  Commit,
  CommitAffectedFiles,
  CommitMeta,
  CommitStats,
  CommitUser,
  Compare,
  ContentsResponse,
  Cron,
  Hook,
  HookDelivery,
  HookDeliverySummary,
  DeployKey,
  Email,
  ExternalTracker,
  ExternalWiki,
  FileCommitResponse,
  FileLinksResponse,
  FileResponse,
  FilesResponse,
  GeneralAPISettings,
  GeneralAttachmentSettings,
  GeneralRepoSettings,
  GeneralUISettings,
  GitBlobResponse,
  GitEntry,
  GitObject,
  GitTreeResponse,
  InternalTracker,
  Issue,
  Label,
  LanguageStatistics,
  Milestone,
  NotificationCount,
  NotificationSubject,
  NotificationThread,
  NewIssuePinsAllowed,
  Organization,
  PRBranchInfo,
  Package,
  PackageFile,
  PayloadCommit,
  PayloadCommitVerification,
  PayloadUser,
  Permission,
  Project,
  PublicKey,
  PullRequest,
  PullRequestMeta,
  PullReview,
  PullReviewComment,
  Reaction,
  Reference,
  RepoCollaboratorPermission,
  RepoCommit,
  Release,
  RepoTransfer,
  Repository,
  RepositoryMeta,
  SearchResults,
  ServerVersion,
  StopWatch,
  Tag,
  Team,
  TimelineComment,
  TopicName,
  TopicResponse,
  TopicSearchResults,
  TrackedTime,
  User,
  UserSearchResults,
  WatchInfo,
};

/** The request bodies, by Gitea's swagger names (Forgegraph's own for the projects API). */
export const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  CreatePushMirrorOption,
  MigrateRepoOptions,
  AddCollaboratorOption,
  AddTimeOption,
  CreateActionWorkflowDispatch,
  EditActionRunnerOption,
  CreateOrUpdateSecretOption,
  CreateVariableOption,
  UpdateVariableOption,
  CreateBranchProtectionOption,
  CreateStatusOption,
  EditBranchProtectionOption,
  UpdateBranchProtectionPriories,
  ChangeFileOperation,
  ChangeFilesOptions,
  CommitDateOptions,
  CreateBranchRepoOption,
  CreateFileOptions,
  CreateAccessTokenOption,
  CreateEmailOption,
  CreateForkOption,
  CreateIssueCommentOption,
  CreateIssueOption,
  CreateHookOption,
  EditHookOption,
  CreateKeyOption,
  CreateLabelOption,
  CreateMilestoneOption,
  CreateOrgOption,
  CreateProjectOption,
  CreatePullRequestOption,
  CreatePullReviewComment,
  CreatePullReviewOptions,
  CreateReleaseOption,
  CreateRepoOption,
  CreateTagOption,
  CreateTeamOption,
  CreateUserOption,
  DeleteEmailOption,
  DeleteFileOptions,
  DismissPullReviewOptions,
  EditAttachmentOptions,
  EditIssueCommentOption,
  EditIssueOption,
  EditLabelOption,
  EditMilestoneOption,
  EditOrgOption,
  EditProjectOption,
  EditReleaseOption,
  EditPullRequestOption,
  EditReactionOption,
  EditRepoOption,
  EditTeamOption,
  EditUserOption,
  Identity,
  IssueAssigneesOption,
  IssueLabelsOption,
  IssueMeta,
  LockIssueOption,
  MergePullRequestOption,
  PullReviewRequestOptions,
  RenameBranchRepoOption,
  SubmitPullReviewOptions,
  UpdateFileOptions,
  RepoTopicOptions,
  TransferRepoOption,
};
