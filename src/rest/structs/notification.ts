import { z } from 'zod';
import { Repository } from './repo.ts';

/** Gitea `NotificationSubject` (modules/structs/notifications.go), fields in Gitea's order. */
export const NotificationSubject = z.object({
  title: z.string(),
  url: z.string(),
  latest_comment_url: z.string(),
  html_url: z.string(),
  latest_comment_html_url: z.string(),
  type: z.enum(['Issue', 'Pull', 'Commit', 'Repository']),
  /** `""` for commit and repository subjects. */
  state: z.enum(['open', 'closed', 'merged', '']),
});
export type NotificationSubject = z.infer<typeof NotificationSubject>;

/** Gitea `NotificationThread`: `repository` and `subject` are null when the subject is gone. */
export const NotificationThread = z.object({
  id: z.number().int(),
  repository: Repository.nullable(),
  subject: NotificationSubject.nullable(),
  unread: z.boolean(),
  pinned: z.boolean(),
  updated_at: z.string(),
  url: z.string(),
});
export type NotificationThread = z.infer<typeof NotificationThread>;

/** Gitea `NotificationCount`: the number of unread threads. */
export const NotificationCount = z.object({ new: z.number().int() });
