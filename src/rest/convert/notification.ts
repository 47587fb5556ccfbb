import type { NotificationThreadView } from '../../services/notification/notification.ts';
import type { RepoPermission } from '../../permissions/repoPermission.ts';
import type { NotificationSubject, NotificationThread } from '../structs/notification.ts';
import type { Repository } from '../structs/repo.ts';
import { toApiRepository } from './repo.ts';
import { apiTime } from './time.ts';
import type { ConvertOptions } from './user.ts';

/** Gitea converts a thread's repository with a minimal read permission and then drops `permissions`. */
const READ: RepoPermission = { mode: 'READ', units: {}, blocked: false };

function withoutPermissions(repo: Repository): Repository {
  const { permissions: _dropped, parent, ...rest } = repo;
  return { ...rest, ...(parent ? { parent: withoutPermissions(parent) } : {}) } as Repository;
}

function subjectOf(v: NotificationThreadView, opts: ConvertOptions): NotificationSubject | null {
  const { thread, repo, issue } = v;
  if (!repo) return null;
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const apiRepo = `${opts.rootUrl}api/v1/repos/${path}`;
  switch (thread.source) {
    case 'ISSUE':
    case 'PULL_REQUEST': {
      if (!issue) return null;
      const html = `${opts.rootUrl}${path}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`;
      const c = v.latestCommentId;
      return {
        title: issue.title,
        url: `${apiRepo}/issues/${issue.index}`,
        latest_comment_url: c === null ? '' : `${apiRepo}/issues/comments/${c}`,
        html_url: html,
        latest_comment_html_url: c === null ? '' : `${html}#issuecomment-${c}`,
        type: issue.isPull ? 'Pull' : 'Issue',
        state: issue.merged ? 'merged' : issue.isClosed ? 'closed' : 'open',
      };
    }
    case 'COMMIT': {
      const url = `${opts.rootUrl}${path}/commit/${encodeURIComponent(thread.commitId)}`;
      return { title: thread.commitId, url, latest_comment_url: '', html_url: url, latest_comment_html_url: '', type: 'Commit', state: '' };
    }
    case 'REPOSITORY':
      return {
        title: `${repo.ownerName}/${repo.name}`,
        url: `/${path}`,
        latest_comment_url: '',
        html_url: `${opts.rootUrl}${path}`,
        latest_comment_html_url: '',
        type: 'Repository',
        state: '',
      };
  }
}

/**
 * Gitea convert.ToNotificationThread: `unread` unless read or pinned, `pinned` when pinned, the repository
 * without `permissions`, the subject with its state (merged pull requests: `merged`) and latest comment URLs
 * (`""` without comments). Pure.
 */
export function toApiNotificationThread(v: NotificationThreadView, opts: ConvertOptions): NotificationThread {
  const { thread, repo } = v;
  return {
    id: thread.id,
    repository: repo ? withoutPermissions(toApiRepository(repo, repo.owner, READ, opts)) : null,
    subject: subjectOf(v, opts),
    unread: thread.status === 'UNREAD',
    pinned: thread.status === 'PINNED',
    updated_at: apiTime(thread.updatedAt),
    url: `${opts.rootUrl}api/v1/notifications/threads/${thread.id}`,
  };
}

/** A list of threads. */
export function toApiNotificationThreadList(views: readonly NotificationThreadView[], opts: ConvertOptions): NotificationThread[] {
  return views.map((v) => toApiNotificationThread(v, opts));
}
