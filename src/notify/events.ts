/**
 * Domain events, published after the transaction that caused them commits.
 * Later features add variants here (issues, pushes, reviews …); subscribers switch on `type`.
 */
export type DomainEvent =
  | { type: 'user.created'; userId: number; actorId: number | null }
  | { type: 'user.updated'; userId: number; actorId: number | null; fields: string[] }
  | { type: 'user.deleted'; userId: number; login: string; actorId: number | null }
  | { type: 'user.passwordChanged'; userId: number; actorId: number | null }
  | { type: 'accessToken.created'; userId: number; tokenId: number; actorId: number | null }
  | { type: 'accessToken.deleted'; userId: number; tokenId: number; actorId: number | null }
  | { type: 'email.added'; userId: number; emails: string[] }
  | { type: 'email.deleted'; userId: number; emails: string[] }
  | { type: 'user.keyAdded'; userId: number; keyId: number; actorId: number | null }
  | { type: 'user.keyRemoved'; userId: number; keyId: number; actorId: number | null }
  | { type: 'org.created'; orgId: number; actorId: number }
  | { type: 'org.updated'; orgId: number; actorId: number | null }
  | { type: 'org.deleted'; orgId: number; name: string; actorId: number | null }
  | { type: 'org.memberRemoved'; orgId: number; userId: number; actorId: number | null }
  | { type: 'team.created'; teamId: number; orgId: number; actorId: number | null }
  | { type: 'team.updated'; teamId: number; orgId: number; actorId: number | null }
  | { type: 'team.deleted'; teamId: number; orgId: number; actorId: number | null }
  | { type: 'team.memberAdded'; teamId: number; orgId: number; userId: number; actorId: number | null }
  | { type: 'team.memberRemoved'; teamId: number; orgId: number; userId: number; actorId: number | null }
  | { type: 'team.repoAdded'; teamId: number; orgId: number; repoId: number; actorId: number | null }
  | { type: 'team.repoRemoved'; teamId: number; orgId: number; repoId: number; actorId: number | null }
  | { type: 'user.blocked'; blockerId: number; blockeeId: number; actorId: number | null }
  | { type: 'user.unblocked'; blockerId: number; blockeeId: number; actorId: number | null }
  | { type: 'label.created'; labelId: number; orgId: number | null; repoId: number | null; actorId: number | null }
  | { type: 'label.updated'; labelId: number; orgId: number | null; repoId: number | null; actorId: number | null }
  | { type: 'label.deleted'; labelId: number; orgId: number | null; repoId: number | null; actorId: number | null }
  | { type: 'repo.created'; repoId: number; actorId: number }
  /** `repoId` is the new fork, `parentId` the repository it was forked from. */
  | { type: 'repo.forked'; repoId: number; parentId: number; actorId: number }
  | { type: 'repo.updated'; repoId: number; actorId: number | null; fields: string[] }
  | { type: 'repo.renamed'; repoId: number; oldName: string; actorId: number | null }
  | { type: 'repo.transferStarted'; repoId: number; recipientId: number; actorId: number }
  | { type: 'repo.transferRejected'; repoId: number; recipientId: number; actorId: number | null }
  | { type: 'repo.transferred'; repoId: number; oldOwnerId: number; oldOwnerName: string; newOwnerId: number; actorId: number }
  | { type: 'repo.deleted'; repoId: number; ownerId: number; name: string; actorId: number | null }
  /** A wiki page written through the API (`page` is its web path, `comment` the commit message of a creation or edit). */
  | { type: 'wiki.changed'; repoId: number; actorId: number; action: 'created' | 'edited' | 'deleted'; page: string; comment: string }
  | { type: 'repo.collaboratorAdded'; repoId: number; userId: number; actorId: number | null }
  | { type: 'repo.collaboratorRemoved'; repoId: number; userId: number; actorId: number | null }
  | { type: 'repo.deployKeyAdded'; repoId: number; keyId: number; actorId: number | null }
  | { type: 'repo.deployKeyRemoved'; repoId: number; keyId: number; actorId: number | null }
  | { type: 'issue.created'; issueId: number; repoId: number; index: number; isPull: boolean; actorId: number }
  /**
   * `old` holds the previous title/body/ref when those changed, `assignees` who was added and removed (webhook
   * payloads' `changes` and one issue_assign delivery per change).
   */
  | {
      type: 'issue.updated';
      issueId: number;
      repoId: number;
      index: number;
      actorId: number;
      fields: string[];
      old?: { title?: string; body?: string; ref?: string };
      assignees?: { added: number[]; removed: number[] };
    }
  /** A commit status was created (by a user, or by Actions with actorId null). */
  | { type: 'commitStatus.created'; statusId: number; repoId: number; sha: string; actorId: number | null }
  /** A title edit took a pull request out of work in progress (Gitea's IssueChangeTitle condition). */
  | { type: 'pull.readyForReview'; issueId: number; repoId: number; index: number; actorId: number }
  | { type: 'issue.closed'; issueId: number; repoId: number; index: number; actorId: number }
  | { type: 'issue.reopened'; issueId: number; repoId: number; index: number; actorId: number }
  | { type: 'milestone.created'; milestoneId: number; repoId: number; actorId: number }
  | { type: 'milestone.updated'; milestoneId: number; repoId: number; actorId: number; fields: string[] }
  | { type: 'milestone.deleted'; milestoneId: number; repoId: number; actorId: number }
  /** Projects: a repository's (repoId set) or an owner's (ownerId set). */
  | { type: 'project.created'; projectId: number; repoId: number | null; ownerId: number | null; actorId: number }
  | { type: 'project.updated'; projectId: number; repoId: number | null; ownerId: number | null; actorId: number; fields: string[] }
  | { type: 'project.deleted'; projectId: number; repoId: number | null; ownerId: number | null; actorId: number }
  /** issueId is now blocked by (depends on) dependencyId; repoId is issueId's repository. */
  | { type: 'issue.dependencyAdded'; issueId: number; dependencyId: number; repoId: number; actorId: number }
  | { type: 'issue.dependencyRemoved'; issueId: number; dependencyId: number; repoId: number; actorId: number }
  /** A reaction on an issue (commentId 0) or on one of its comments; Gitea sends no webhook for these. */
  | { type: 'reaction.added'; reactionId: number; issueId: number; commentId: number; repoId: number; content: string; actorId: number }
  | { type: 'reaction.removed'; issueId: number; commentId: number; repoId: number; content: string; actorId: number }
  /** Tracked time booked (manually or by a stopwatch) or deleted; `seconds` is the amount. */
  | { type: 'trackedTime.added'; trackedTimeId: number; issueId: number; repoId: number; userId: number; seconds: number; actorId: number }
  | { type: 'trackedTime.deleted'; issueId: number; repoId: number; userId: number | null; seconds: number; actorId: number }
  /** A plain comment (type COMMENT) was added to an issue or pull request. */
  | { type: 'comment.created'; commentId: number; issueId: number; repoId: number; index: number; isPull: boolean; actorId: number }
  /** A comment's body changed; `oldContent` is the body before the edit. */
  | {
      type: 'comment.updated';
      commentId: number;
      issueId: number;
      repoId: number;
      index: number;
      isPull: boolean;
      actorId: number;
      oldContent: string;
    }
  /** An issue or pull request was deleted with everything it held (Gitea DeleteIssue); the rows are gone. */
  | { type: 'issue.deleted'; issueId: number; repoId: number; index: number; isPull: boolean; actorId: number }
  /** A comment was deleted; the row is gone, so the event carries what subscribers need of it. */
  | {
      type: 'comment.deleted';
      commentId: number;
      issueId: number;
      repoId: number;
      index: number;
      isPull: boolean;
      actorId: number;
      posterId: number | null;
      content: string;
    }
  /** A pull request review was submitted (never for a pending one); `commentId` is its REVIEW timeline comment. */
  | {
      type: 'pull.reviewed';
      reviewId: number;
      issueId: number;
      repoId: number;
      index: number;
      state: 'APPROVE' | 'REJECT' | 'COMMENT';
      commentId: number;
      actorId: number;
    }
  /** A review was dismissed (`commentId` is the DISMISS_REVIEW comment) or its dismissal undone (`commentId` null). */
  | {
      type: 'pull.reviewDismissed';
      reviewId: number;
      issueId: number;
      repoId: number;
      index: number;
      dismissed: boolean;
      commentId: number | null;
      actorId: number;
    }
  /** A review and its code comments were deleted. */
  | {
      type: 'pull.reviewDeleted';
      reviewId: number;
      issueId: number;
      repoId: number;
      index: number;
      reviewerId: number | null;
      actorId: number;
    }
  /** A review was requested from a user (`reviewerId`) or a team (`teamId`), or such a request was removed. */
  | {
      type: 'pull.reviewRequested' | 'pull.reviewRequestRemoved';
      issueId: number;
      repoId: number;
      index: number;
      reviewerId: number | null;
      teamId: number | null;
      commentId: number;
      actorId: number;
    }
  /**
   * A pull request became merged: through the API (`how` is the merge style), marked merged by hand
   * (`manually-merged`), or found merged after a push (`autodetected`). `commitId` is the merge commit.
   */
  | {
      type: 'pull.merged';
      pullId: number;
      issueId: number;
      repoId: number;
      index: number;
      how: string;
      commitId: string;
      actorId: number;
      /** Merged by a scheduled auto-merge. */
      auto?: boolean;
    }
  /**
   * A release was published (created as, or turned from a draft into, a release with its tag), edited while
   * published, or deleted (a published one; drafts send nothing, as Gitea). `action` is Gitea's webhook action.
   */
  | { type: 'release.published'; releaseId: number; repoId: number; actorId: number; action: 'published' }
  | { type: 'release.updated'; releaseId: number; repoId: number; actorId: number; action: 'updated' }
  /** `release` is the deleted row as it was (with its time as ISO text): subscribers run after it is gone. */
  | {
      type: 'release.deleted';
      releaseId: number;
      repoId: number;
      actorId: number;
      action: 'deleted';
      tagName: string;
      title: string;
      release: { target: string; note: string; isPrerelease: boolean; publisherId: number | null; createdAt: string };
    }
  /**
   * An Actions job's API status changed (`queued`, `waiting`, `in_progress`, `completed`): workflow_job webhooks.
   * `actorId` is the run's trigger user (Gitea's sender).
   */
  | { type: 'actions.jobStatus'; jobId: number; runId: number; repoId: number; action: string; actorId: number | null }
  /** An Actions run's webhook action changed (`requested`, `in_progress`, `completed`): workflow_run webhooks. */
  | { type: 'actions.runStatus'; runId: number; repoId: number; action: string; actorId: number | null }
  /**
   * A notification thread became unread for `userId` (created, or updated from read): published by the
   * notification job after its transaction commits; live subscriptions (notificationReceived) listen to it.
   */
  | { type: 'notification.created'; notificationId: number; userId: number; repoId: number; issueId: number | null }
  /** A push that was applied: one entry per updated ref (old/new are 40- or 64-hex; all zeros = none). */
  | { type: 'repo.pushed'; repoId: number; pusherId: number; updates: RefUpdate[] }
  /** A user starred or unstarred a repository (`starred` tells which). */
  | { type: 'repo.starred'; repoId: number; actorId: number; starred: boolean }
  /** A user started (`watching` true) or stopped watching a repository. */
  | { type: 'repo.watched'; repoId: number; actorId: number; watching: boolean }
  /** Users were added as assignees of an issue or pull request (by editing it; not at creation). */
  | { type: 'issue.assigned'; issueId: number; repoId: number; index: number; assigneeIds: number[]; actorId: number }
  /** Commits pushed to a pull request's head branch; `commentId` is the PULL_PUSH timeline comment. */
  | { type: 'pull.pushed'; issueId: number; repoId: number; index: number; commentId: number; actorId: number }
  /**
   * A package version was created (Gitea's `package` webhook `created`, sent only when a version is new) or deleted
   * (`deleted`; the rows are gone, so the event carries what a payload needs). `repoId` is the linked repository.
   */
  | { type: 'package.created'; packageId: number; versionId: number; ownerId: number; repoId: number | null; actorId: number }
  | {
      type: 'package.deleted';
      packageId: number;
      versionId: number;
      ownerId: number;
      repoId: number | null;
      packageType: string;
      name: string;
      version: string;
      actorId: number;
    };

/** One ref changed by a push or by the API. */
export interface RefUpdate {
  ref: string;
  oldSha: string;
  newSha: string;
}
