import type { DbLike, Models } from '../../db/client.ts';
import { canRead, type RepoPermission } from '../../permissions/repoPermission.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions } from '../paging.ts';
import { teamReadWhere } from '../org/visibility.ts';
import { COMMENT_ORDER, loadCommentViews, updatedWithin, type CommentView, type TimeWindow } from './comment.ts';
import { findIssueByIndex, loadIssueViews, type IssueLabelView, type IssueView, unitOf } from './issue.ts';

/** A team as the timeline shows it (review requests), with its units. */
export type TimelineTeam = Models.Team & { units: Pick<Models.TeamUnit, 'type' | 'accessMode'>[] };

/** A tracked time as the timeline shows it, with its user and issue. */
export interface TimelineTrackedTime {
  time: Models.TrackedTime;
  user: Models.User | null;
  issue: IssueView;
}

/** One timeline entry (a comment of any type) with every relation Gitea's TimelineComment shows, bulk-loaded. */
export interface TimelineView extends CommentView {
  label: IssueLabelView | null;
  milestone: Models.Milestone | null;
  oldMilestone: Models.Milestone | null;
  assignee: Models.User | null;
  assigneeTeam: TimelineTeam | null;
  resolveDoer: Models.User | null;
  trackedTime: TimelineTrackedTime | null;
  refIssue: IssueView | null;
  refComment: CommentView | null;
  dependentIssue: IssueView | null;
}

/** Gitea CommentTypeIsRef: references from other issues, commits and comments. */
const REF_TYPES: readonly Models.CommentType[] = ['ISSUE_REF', 'COMMIT_REF', 'COMMENT_REF', 'PULL_REF'];

const ids = (values: readonly (number | null)[]): number[] => [...new Set(values.filter((v): v is number => v !== null))];

/**
 * The viewer's permissions on other repositories, to decide whether what a comment points at there may be shown
 * (Gitea isXRefCommentAccessible; also applied to the issue a dependency comment shows).
 */
async function permissionsOn(cx: ServiceContext, repoIds: readonly number[]): Promise<Map<number, RepoPermission>> {
  const perms = await cx.loaders.repoPermission.loadMany([...repoIds]);
  const out = new Map<number, RepoPermission>();
  repoIds.forEach((id, i) => {
    const perm = perms[i];
    if (perm && !(perm instanceof Error)) out.set(id, perm);
  });
  return out;
}

/** True when `perm` reads the issues (or pull requests) unit. */
const readsUnit = (perm: RepoPermission | undefined, isPull: boolean): boolean => perm !== undefined && canRead(perm, unitOf({ isPull }));

/** Loads the timeline relations of many comments of one issue in a constant number of queries. */
async function loadTimelineViews(cx: ServiceContext, issue: IssueView, comments: readonly Models.Comment[]): Promise<TimelineView[]> {
  const db: DbLike = cx.db;
  const base = await loadCommentViews(db, comments, { issues: [issue.issue] });
  const userIds = ids(comments.flatMap((c) => [c.assigneeId, c.resolveDoerId]));
  const milestoneIds = ids(comments.flatMap((c) => [c.milestoneId, c.oldMilestoneId]));
  const labelIds = ids(comments.map((c) => c.labelId));
  const teamIds = ids(comments.map((c) => c.assigneeTeamId));
  const timeIds = ids(comments.map((c) => c.timeId));
  const refCommentIds = ids(comments.map((c) => c.refCommentId));
  const [users, milestones, labels, teams, times, refComments] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } } }) : [],
    milestoneIds.length ? db.milestone.findMany({ where: { id: { in: milestoneIds } } }) : [],
    labelIds.length
      ? db.label.findMany({
          where: { id: { in: labelIds } },
          include: { org: { select: { name: true } }, repo: { select: { ownerName: true, name: true } } },
        })
      : [],
    teamIds.length
      ? db.team.findMany({
          // A review request of a team the viewer may not read shows no team (Gitea would show a private one).
          where: { AND: [{ id: { in: teamIds } }, teamReadWhere(cx)] },
          include: { units: { select: { type: true, accessMode: true }, orderBy: { id: 'asc' } } },
        })
      : [],
    timeIds.length ? db.trackedTime.findMany({ where: { id: { in: timeIds } }, include: { user: true } }) : [],
    refCommentIds.length ? db.comment.findMany({ where: { id: { in: refCommentIds } } }) : [],
  ]);
  const issueIds = ids(comments.flatMap((c) => [c.refIssueId, c.dependentIssueId]));
  const [otherIssues, refCommentViews] = await Promise.all([
    issueIds.length ? db.issue.findMany({ where: { id: { in: issueIds } } }) : [],
    loadCommentViews(db, refComments),
  ]);
  const otherViews = await loadIssueViews(db, otherIssues);
  const perms = await permissionsOn(cx, ids(otherViews.filter((v) => v.issue.repoId !== issue.issue.repoId).map((v) => v.issue.repoId)));
  const visible = (v: IssueView | undefined): IssueView | null =>
    v && (v.issue.repoId === issue.issue.repoId || readsUnit(perms.get(v.issue.repoId), v.issue.isPull)) ? v : null;

  const userById = new Map(users.map((u) => [u.id, u]));
  const milestoneById = new Map(milestones.map((m) => [m.id, m]));
  const labelById = new Map(labels.map((l) => [l.id, l]));
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const timeById = new Map(times.map((t) => [t.id, t]));
  const issueById = new Map(otherViews.map((v) => [v.issue.id, v]));
  const refCommentById = new Map(refCommentViews.map((v) => [v.comment.id, v]));
  const pick = <T>(map: Map<number, T>, id: number | null): T | null => (id === null ? null : (map.get(id) ?? null));

  return base.map((view) => {
    const c = view.comment;
    const time = pick(timeById, c.timeId);
    const refIssue = visible(issueById.get(c.refIssueId ?? -1));
    // The comment view is this function's own: extended in place (a spread copy is slow to extend on Node 20).
    return Object.assign(view, {
      label: pick(labelById, c.labelId),
      milestone: pick(milestoneById, c.milestoneId),
      oldMilestone: pick(milestoneById, c.oldMilestoneId),
      assignee: pick(userById, c.assigneeId),
      assigneeTeam: pick(teamById, c.assigneeTeamId),
      resolveDoer: pick(userById, c.resolveDoerId),
      trackedTime: time ? { time, user: time.user, issue } : null,
      refIssue,
      refComment: refIssue || c.refRepoId === issue.issue.repoId ? pick(refCommentById, c.refCommentId) : null,
      dependentIssue: visible(issueById.get(c.dependentIssueId ?? -1)),
    });
  });
}

/**
 * Every timeline entry of an issue or pull request, oldest first, one page (GET /repos/{o}/{r}/issues/{index}/timeline;
 * Gitea TimelineComment). Code comments are left out, and so are references from repositories whose issues
 * (pulls) the viewer cannot read, after paging, as Gitea does.
 * @throws NotFoundError
 */
export async function listTimeline(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  input: TimeWindow & { page: ListOptions },
): Promise<TimelineView[]> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  const rows = await cx.db.comment.findMany({
    where: { AND: [{ issueId: issue.id }, ...updatedWithin(input)] },
    orderBy: COMMENT_ORDER,
    ...skipTake(input.page),
  });
  const foreign = ids(rows.filter((c) => REF_TYPES.includes(c.type) && c.refRepoId !== issue.repoId).map((c) => c.refRepoId));
  const perms = await permissionsOn(cx, foreign);
  const shown = rows.filter((c) => {
    if (c.type === 'CODE') return false;
    if (!REF_TYPES.includes(c.type) || c.refRepoId === null || c.refRepoId === issue.repoId) return true;
    return readsUnit(perms.get(c.refRepoId), c.refIsPull);
  });
  const [issueView] = await loadIssueViews(cx.db, [issue]);
  if (!issueView || !shown.length) return [];
  return loadTimelineViews(cx, issueView, shown);
}
