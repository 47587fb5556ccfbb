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
  | { type: 'repo.deleted'; repoId: number; ownerId: number; name: string; actorId: number | null }
  | { type: 'repo.collaboratorAdded'; repoId: number; userId: number; actorId: number | null }
  | { type: 'repo.collaboratorRemoved'; repoId: number; userId: number; actorId: number | null }
  | { type: 'repo.deployKeyAdded'; repoId: number; keyId: number; actorId: number | null }
  | { type: 'repo.deployKeyRemoved'; repoId: number; keyId: number; actorId: number | null }
  | { type: 'issue.created'; issueId: number; repoId: number; index: number; isPull: boolean; actorId: number }
  | { type: 'issue.updated'; issueId: number; repoId: number; index: number; actorId: number; fields: string[] }
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
  | { type: 'pull.merged'; pullId: number; issueId: number; repoId: number; index: number; how: string; commitId: string; actorId: number }
  /** A push that was applied: one entry per updated ref (old/new are 40- or 64-hex; all zeros = none). */
  | { type: 'repo.pushed'; repoId: number; pusherId: number; updates: RefUpdate[] }
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
