import type { Models } from '../../db/client.ts';
import type { ActivityView } from '../../services/feed/feed.ts';
import type { Activity } from '../structs/activity.ts';
import { toApiComment } from './comment.ts';
import { toApiRepository } from './repo.ts';
import { apiTime } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea ActionType.String(): the enum in lower case. */
export const opTypeName = (t: Models.ActionType): string => t.toLowerCase();

/** Gitea convert.ToActivity: the actor as the viewer sees it, the repository with the viewer's permission. */
export function toApiActivity(v: ActivityView, viewer: Viewer, opts: ConvertOptions): Activity {
  const a = v.action;
  return {
    id: a.id,
    user_id: a.userId,
    op_type: opTypeName(a.opType),
    act_user_id: a.actUserId,
    act_user: toApiUser(v.actUser, viewer, opts),
    repo_id: a.repoId,
    repo: toApiRepository(v.repo, v.repo.owner, v.perm, opts),
    comment_id: v.comment ? (a.commentId ?? 0) : 0,
    comment: v.comment ? toApiComment(v.comment, opts) : null,
    ref_name: a.refName,
    is_private: a.isPrivate,
    content: a.content,
    created: apiTime(a.createdAt),
  };
}

/** A feed page, converted for one viewer. */
export function toApiActivityList(views: readonly ActivityView[], viewer: Viewer, opts: ConvertOptions): Activity[] {
  return views.map((v) => toApiActivity(v, viewer, opts));
}
