import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canRead, canWrite } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import type { LabelWithOwner } from '../label/label.ts';
import { issueReadWhere } from './visibility.ts';

/** A label as issues show it: repository or organization label, with what its URL needs. */
export type IssueLabelView = LabelWithOwner & { repo: Pick<Models.Repository, 'ownerName' | 'name'> | null };

/** An issue with every relation its REST/GraphQL form needs, bulk-loaded. */
export interface IssueView {
  issue: Models.Issue;
  repo: Pick<Models.Repository, 'id' | 'name' | 'ownerName'>;
  poster: Models.User | null;
  labels: IssueLabelView[];
  milestone: Models.Milestone | null;
  assignees: Models.User[];
  pull: Models.PullRequest | null;
  /** Projects the issue is in, by id. */
  projects: Models.Project[];
  /** Files attached to the issue itself (not to its comments), oldest first. */
  attachments: Models.Attachment[];
}

/** The unit an issue row belongs to. */
export const unitOf = (issue: Pick<Models.Issue, 'isPull'>): 'ISSUES' | 'PULL_REQUESTS' => (issue.isPull ? 'PULL_REQUESTS' : 'ISSUES');

/** Gitea CanWriteIssuesOrPulls for one issue. */
export function canWriteIssue(access: RepoAccess, issue: Pick<Models.Issue, 'isPull'>): boolean {
  return canWrite(access.perm, unitOf(issue));
}

/**
 * The issue (or pull request) numbered `index` in the repository, if its unit is readable.
 * @throws NotFoundError
 */
export async function findIssueByIndex(cx: ServiceContext, access: RepoAccess, index: number): Promise<Models.Issue> {
  const issue =
    Number.isSafeInteger(index) && index > 0
      ? await cx.db.issue.findUnique({ where: { repoId_index: { repoId: access.repo.id, index } } })
      : null;
  if (!issue || !canRead(access.perm, unitOf(issue))) {
    throw new NotFoundError(`issue does not exist [id: 0, repo_id: ${access.repo.id}, index: ${index}]`, { repoId: access.repo.id, index });
  }
  return issue;
}

/** Where an issue lives, for callers that hold an issue id (GraphQL). */
export interface IssueLocation {
  ref: RepoRef;
  index: number;
}

/** The repository and number of an issue the viewer may see; for any other id a location that answers NotFound. */
export async function locateIssueById(cx: ServiceContext, issueId: number): Promise<IssueLocation> {
  const row =
    Number.isSafeInteger(issueId) && issueId > 0
      ? await cx.db.issue.findFirst({
          where: { id: issueId, ...issueReadWhere(cx) },
          select: { index: true, repo: { select: { ownerName: true, name: true } } },
        })
      : null;
  return row ? { ref: { owner: row.repo.ownerName, repo: row.repo.name }, index: row.index } : { ref: { owner: '', repo: '' }, index: 0 };
}

/** Loads the relations of many issues in a constant number of queries, keeping the input order. */
export async function loadIssueViews(db: DbLike, issues: readonly Models.Issue[]): Promise<IssueView[]> {
  if (issues.length === 0) return [];
  const ids = issues.map((i) => i.id);
  const repoIds = [...new Set(issues.map((i) => i.repoId))];
  const posterIds = [...new Set(issues.map((i) => i.posterId).filter((id): id is number => id !== null))];
  const milestoneIds = [...new Set(issues.map((i) => i.milestoneId).filter((id): id is number => id !== null))];
  const pullIds = issues.filter((i) => i.isPull).map((i) => i.id);
  const [repos, posters, labels, assignees, milestones, pulls, projectRows, attachments] = await Promise.all([
    db.repository.findMany({ where: { id: { in: repoIds } }, select: { id: true, name: true, ownerName: true } }),
    posterIds.length ? db.user.findMany({ where: { id: { in: posterIds } } }) : [],
    db.issueLabel.findMany({
      where: { issueId: { in: ids } },
      include: { label: { include: { org: { select: { name: true } }, repo: { select: { ownerName: true, name: true } } } } },
    }),
    db.issueAssignee.findMany({ where: { issueId: { in: ids } }, include: { assignee: true }, orderBy: { id: 'asc' } }),
    milestoneIds.length ? db.milestone.findMany({ where: { id: { in: milestoneIds } } }) : [],
    pullIds.length ? db.pullRequest.findMany({ where: { issueId: { in: pullIds } } }) : [],
    db.projectIssue.findMany({ where: { issueId: { in: ids } }, include: { project: true }, orderBy: { projectId: 'asc' } }),
    db.attachment.findMany({ where: { issueId: { in: ids }, commentId: null }, orderBy: { id: 'asc' } }),
  ]);
  const repoById = new Map(repos.map((r) => [r.id, r]));
  const posterById = new Map(posters.map((u) => [u.id, u]));
  const milestoneById = new Map(milestones.map((m) => [m.id, m]));
  const pullByIssue = new Map(pulls.map((p) => [p.issueId, p]));
  const labelsByIssue = new Map<number, IssueLabelView[]>();
  for (const row of labels.sort((a, b) => a.label.name.localeCompare(b.label.name) || a.labelId - b.labelId)) {
    const list = labelsByIssue.get(row.issueId) ?? [];
    list.push(row.label);
    labelsByIssue.set(row.issueId, list);
  }
  const projectsByIssue = new Map<number, Models.Project[]>();
  for (const row of projectRows) projectsByIssue.set(row.issueId, [...(projectsByIssue.get(row.issueId) ?? []), row.project]);
  const assigneesByIssue = new Map<number, Models.User[]>();
  for (const row of assignees) {
    const list = assigneesByIssue.get(row.issueId) ?? [];
    list.push(row.assignee);
    assigneesByIssue.set(row.issueId, list);
  }
  return issues.map((issue) => {
    const repo = repoById.get(issue.repoId);
    if (!repo) throw new NotFoundError('repository does not exist', { repoId: issue.repoId });
    return {
      issue,
      repo,
      poster: issue.posterId === null ? null : (posterById.get(issue.posterId) ?? null),
      labels: labelsByIssue.get(issue.id) ?? [],
      milestone: issue.milestoneId === null ? null : (milestoneById.get(issue.milestoneId) ?? null),
      assignees: assigneesByIssue.get(issue.id) ?? [],
      pull: pullByIssue.get(issue.id) ?? null,
      projects: projectsByIssue.get(issue.id) ?? [],
      attachments: attachments.filter((a) => a.issueId === issue.id),
    };
  });
}

/** One issue with its relations. */
export async function loadIssueView(db: DbLike, issue: Models.Issue): Promise<IssueView> {
  const [view] = await loadIssueViews(db, [issue]);
  if (!view) throw new NotFoundError('issue does not exist', { issueId: issue.id });
  return view;
}

/**
 * An issue or pull request by its number (GET /repos/{o}/{r}/issues/{index}).
 * @throws NotFoundError
 */
export async function getIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<IssueView> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  return loadIssueView(cx.db, await findIssueByIndex(cx, access, index));
}

/** A write the viewer may not do on this issue: only its poster or a writer of its unit. @throws PermissionDeniedError */
export function requirePosterOrWriter(cx: ServiceContext, access: RepoAccess, issue: Models.Issue): boolean {
  const writer = canWriteIssue(access, issue);
  const viewer = requireViewer(cx);
  if (!writer && (issue.posterId !== viewer.id || access.perm.blocked)) {
    throw new PermissionDeniedError('user should be the poster of the issue or have write permission', { issueId: issue.id });
  }
  return writer;
}
