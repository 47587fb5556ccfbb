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
  poster: ViewUser | null;
  labels: IssueLabelView[];
  milestone: Models.Milestone | null;
  assignees: ViewUser[];
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

/** A user row as views carry it: every column but the password hash. */
export type ViewUser = Omit<Models.User, 'passwordHash'>;
const VIEW_USER_OMIT = { passwordHash: true } as const;

type RepoName = Pick<Models.Repository, 'id' | 'name' | 'ownerName'>;

/**
 * Loads the relations of many issues in a constant number of queries, keeping the input order: link rows first,
 * then the rows they point at (users — posters and assignees in one query —, labels, projects), then names of
 * label owners not at hand. A level with nothing to load runs no query; `known` repositories are not reloaded.
 */
export async function loadIssueViews(db: DbLike, issues: readonly Models.Issue[], known: readonly RepoName[] = []): Promise<IssueView[]> {
  if (issues.length === 0) return [];
  const ids = issues.map((i) => i.id);
  const knownRepos = new Map(known.map((r) => [r.id, { id: r.id, name: r.name, ownerName: r.ownerName }]));
  const repoIds = [...new Set(issues.map((i) => i.repoId))].filter((id) => !knownRepos.has(id));
  const milestoneIds = [...new Set(issues.map((i) => i.milestoneId).filter((id): id is number => id !== null))];
  const pullIds = issues.filter((i) => i.isPull).map((i) => i.id);
  const [repos, issueLabels, assignees, milestones, pulls, projectRows, attachments] = await Promise.all([
    repoIds.length ? db.repository.findMany({ where: { id: { in: repoIds } }, select: { id: true, name: true, ownerName: true } }) : [],
    db.issueLabel.findMany({ where: { issueId: { in: ids } }, select: { issueId: true, labelId: true } }),
    db.issueAssignee.findMany({ where: { issueId: { in: ids } }, select: { issueId: true, assigneeId: true }, orderBy: { id: 'asc' } }),
    milestoneIds.length ? db.milestone.findMany({ where: { id: { in: milestoneIds } } }) : [],
    pullIds.length ? db.pullRequest.findMany({ where: { issueId: { in: pullIds } } }) : [],
    db.projectIssue.findMany({
      where: { issueId: { in: ids } },
      select: { issueId: true, projectId: true },
      orderBy: { projectId: 'asc' },
    }),
    db.attachment.findMany({ where: { issueId: { in: ids }, commentId: null }, orderBy: { id: 'asc' } }),
  ]);
  const repoById = new Map([...knownRepos, ...repos.map((r) => [r.id, r] as const)]);
  const userIds = [
    ...new Set([...issues.flatMap((i) => (i.posterId === null ? [] : [i.posterId])), ...assignees.map((a) => a.assigneeId)]),
  ];
  const labelIds = [...new Set(issueLabels.map((l) => l.labelId))];
  const projectIds = [...new Set(projectRows.map((p) => p.projectId))];
  const [users, labelRows, projects] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, omit: VIEW_USER_OMIT }) : [],
    labelIds.length ? db.label.findMany({ where: { id: { in: labelIds } } }) : [],
    projectIds.length ? db.project.findMany({ where: { id: { in: projectIds } } }) : [],
  ]);
  const orgIds = [...new Set(labelRows.flatMap((l) => (l.orgId === null ? [] : [l.orgId])))];
  const labelRepoIds = [...new Set(labelRows.flatMap((l) => (l.repoId === null || repoById.has(l.repoId) ? [] : [l.repoId])))];
  const [orgs, labelRepos] = await Promise.all([
    orgIds.length ? db.user.findMany({ where: { id: { in: orgIds } }, select: { id: true, name: true } }) : [],
    labelRepoIds.length
      ? db.repository.findMany({ where: { id: { in: labelRepoIds } }, select: { id: true, name: true, ownerName: true } })
      : [],
  ]);
  const orgById = new Map(orgs.map((o) => [o.id, { name: o.name }]));
  for (const r of labelRepos) repoById.set(r.id, r);
  const labelById = new Map(
    labelRows.map((l) => {
      const repo = l.repoId === null ? undefined : repoById.get(l.repoId);
      const view: IssueLabelView = {
        ...l,
        org: l.orgId === null ? null : (orgById.get(l.orgId) ?? null),
        repo: repo ? { ownerName: repo.ownerName, name: repo.name } : null,
      };
      return [l.id, view];
    }),
  );
  const userById = new Map(users.map((u) => [u.id, u]));
  const projectById = new Map(projects.map((p) => [p.id, p]));
  const milestoneById = new Map(milestones.map((m) => [m.id, m]));
  const pullByIssue = new Map(pulls.map((p) => [p.issueId, p]));
  const labelsByIssue = new Map<number, IssueLabelView[]>();
  for (const row of issueLabels) {
    const label = labelById.get(row.labelId);
    if (label) labelsByIssue.set(row.issueId, [...(labelsByIssue.get(row.issueId) ?? []), label]);
  }
  for (const list of labelsByIssue.values()) list.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  const projectsByIssue = new Map<number, Models.Project[]>();
  for (const row of projectRows) {
    const project = projectById.get(row.projectId);
    if (project) projectsByIssue.set(row.issueId, [...(projectsByIssue.get(row.issueId) ?? []), project]);
  }
  const assigneesByIssue = new Map<number, ViewUser[]>();
  for (const row of assignees) {
    const user = userById.get(row.assigneeId);
    if (user) assigneesByIssue.set(row.issueId, [...(assigneesByIssue.get(row.issueId) ?? []), user]);
  }
  return issues.map((issue) => {
    const repo = repoById.get(issue.repoId);
    if (!repo) throw new NotFoundError('repository does not exist', { repoId: issue.repoId });
    return {
      issue,
      repo,
      poster: issue.posterId === null ? null : (userById.get(issue.posterId) ?? null),
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
export async function loadIssueView(db: DbLike, issue: Models.Issue, known: readonly RepoName[] = []): Promise<IssueView> {
  const [view] = await loadIssueViews(db, [issue], known);
  if (!view) throw new NotFoundError('issue does not exist', { issueId: issue.id });
  return view;
}

/**
 * An issue or pull request by its number (GET /repos/{o}/{r}/issues/{index}).
 * @throws NotFoundError
 */
export async function getIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<IssueView> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  return loadIssueView(cx.db, await findIssueByIndex(cx, access, index), [access.repo]);
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
