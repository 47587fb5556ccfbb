// What an event becomes for webhooks: one or more Gitea payloads, each for the hooks of one repository.

/** One payload to deliver to the hooks of `repoId` (and its owner's, and the system hooks). */
export interface OutgoingEvent {
  /** Gitea's event type (X-Gitea-Event-Type), e.g. `push`, `issue_label`, `pull_request_review_approved`. */
  eventType: string;
  repoId: number;
  payload: Record<string, unknown>;
  /** The branch a push/create/delete is about (branch filters apply to it); undefined for everything else. */
  branch?: string;
  /** Commits in a push (chat-type hooks skip pushes without any, as Gitea does). */
  commitCount?: number;
}

/** The X-Gitea-Event header of an event type (modules/webhook/type.go Event()). */
export function headerEventOf(eventType: string): string {
  switch (eventType) {
    case 'issue_assign':
    case 'issue_label':
    case 'issue_milestone':
      return 'issues';
    case 'pull_request_assign':
    case 'pull_request_label':
    case 'pull_request_milestone':
    case 'pull_request_sync':
    case 'pull_request_review_request':
      return 'pull_request';
    case 'pull_request_comment':
      return 'issue_comment';
    case 'pull_request_review_approved':
      return 'pull_request_approved';
    case 'pull_request_review_rejected':
      return 'pull_request_rejected';
    case 'pull_request_review_comment':
      return 'pull_request_comment';
    default:
      return eventType;
  }
}
