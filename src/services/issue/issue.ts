import type { DbLike, Models } from '../../db/client.ts';
import { readRows, readRowsForUpdate } from '../../db/readPath.ts';
import { sql } from '../../db/sqlText.ts';
import { columnsOf, rowWith } from '../../db/rowShape.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canRead, canWrite } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import type { LabelWithOwner } from '../label/label.ts';
import { issueReadWhere } from './visibility.ts';
import { groupBy } from '../../groupBy.ts';
import { USER_VIEW_COLUMNS, type UserView } from '../user/viewColumns.ts';

/** A label as issues show it: repository or organization label, with what its URL needs. */
export type IssueLabelView = LabelWithOwner & { repo: Pick<Models.Repository, 'ownerName' | 'name'> | null };

/** An issue with every relation its REST/GraphQL form needs, bulk-loaded. */
export interface IssueView {
  issue: Models.Issue;
  repo: Pick<Models.Repository, 'id' | 'name' | 'ownerName'>;
  poster: UserView | null;
  labels: IssueLabelView[];
  milestone: Models.Milestone | null;
  assignees: UserView[];
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

/** An issue's row by id, or undefined: on the read path, or as the transaction `db` sees it. */
export async function issueById(db: DbLike, id: number): Promise<Models.Issue | undefined> {
  const [row] = await readRows(db, 'Issue', 'SELECT * FROM "Issue" WHERE "id" = ?', [id]);
  return row;
}

/**
 * The issue's row in transaction `tx`, locked until it ends on PostgreSQL (readRowsForUpdate): the changes of its
 * labels and state made elsewhere wait for this transaction, so the labels' counters see both.
 */
export async function lockIssueRow(tx: DbLike, id: number): Promise<Models.Issue | undefined> {
  const [row] = await readRowsForUpdate(tx, 'Issue', 'SELECT * FROM "Issue" WHERE "id" = ?', [id], '"Issue"');
  return row;
}

/**
 * The issue (or pull request) numbered `index` in the repository, if its unit is readable.
 * @throws NotFoundError
 */
export async function findIssueByIndex(cx: ServiceContext, access: RepoAccess, index: number): Promise<Models.Issue> {
  const issue =
    Number.isSafeInteger(index) && index > 0
      ? (await readRows(cx.db, 'Issue', 'SELECT * FROM "Issue" WHERE "repoId" = ? AND "index" = ?', [access.repo.id, index]))[0]
      : undefined;
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

/** A user row as views carry it: the viewer as a known poster, for one (without its password hash). */
export function viewUserOf(user: Models.User): UserView {
  const { passwordHash: _, ...view } = user;
  return view;
}
/** The select list of a user row as views carry it (USER_VIEW_COLUMNS), aliased `u`. */
const VIEW_USER_SELECT = USER_VIEW_COLUMNS.map((c) => `u."${c}"`).join(', ');

/** What issue and comment views name their repository by. */
export type RepoName = Pick<Models.Repository, 'id' | 'name' | 'ownerName'>;
type Linked<T> = T & { linkIssueId: number };

const groupByIssue = <T>(rows: readonly Linked<T>[]): Map<number, T[]> =>
  groupBy(
    rows,
    (r) => r.linkIssueId,
    ({ linkIssueId: _, ...row }) => row as T,
  );

/** The names of repositories by id (those in `known` not read again): one statement, none when every one is known. */
export async function repoNamesById(db: DbLike, ids: readonly number[], known: readonly RepoName[] = []): Promise<Map<number, RepoName>> {
  const byId = new Map(known.map((r) => [r.id, { id: r.id, name: r.name, ownerName: r.ownerName }]));
  const missing = [...new Set(ids)].filter((id) => !byId.has(id));
  if (missing.length) {
    const text = 'SELECT "id", "name", "ownerName" FROM "Repository" WHERE "id" IN (?)';
    for (const r of await readRows<'Repository', RepoName>(db, 'Repository', text, [missing])) byId.set(r.id, r);
  }
  return byId;
}

type LabelOwnerRow = Linked<Models.Label> & { orgName: string | null; repoOwnerName: string | null; repoName: string | null };

/**
 * The labels of each issue with what their URLs need (the organization's name, the repository's owner and name), by
 * name then id (Gitea GetLabelsByIssueID): one statement for any number of issues.
 */
export async function issueLabelViews(db: DbLike, issueIds: readonly number[]): Promise<Map<number, IssueLabelView[]>> {
  const rows = await readRows<'Label', LabelOwnerRow>(
    db,
    'Label',
    sql`SELECT ${columnsOf('Label', 'l')}, il."issueId" AS "linkIssueId", o."name" AS "orgName", r."ownerName" AS "repoOwnerName", r."name" AS "repoName"
     FROM "IssueLabel" il JOIN "Label" l ON l."id" = il."labelId"
     LEFT JOIN "User" o ON o."id" = l."orgId" LEFT JOIN "Repository" r ON r."id" = l."repoId"
     WHERE il."issueId" IN (?)`,
    [issueIds],
  );
  const byIssue = groupBy(
    rows,
    (r) => r.linkIssueId,
    (r): IssueLabelView =>
      labelView(r, r.orgName, r.repoOwnerName === null || r.repoName === null ? null : { ownerName: r.repoOwnerName, name: r.repoName }),
  );
  for (const list of byIssue.values()) list.sort(byLabelName);
  return byIssue;
}

/** The order of an issue's labels: by name, then id (Gitea GetLabelsByIssueID). */
const byLabelName = (a: IssueLabelView, b: IssueLabelView): number => a.name.localeCompare(b.name) || a.id - b.id;

/**
 * The view of a label usable on `repo` (usableLabels: the repository's own, or its owner organization's) as
 * issueLabelViews makes it, from the label's row and the repository at hand.
 */
export function labelViewOf(label: Models.Label, repo: RepoName): IssueLabelView {
  return labelView(label, label.orgId === null ? null : repo.ownerName, label.repoId === null ? null : repo);
}

/** A label's view: its own columns (rowWith copies no others) and the names its URL needs. */
function labelView(label: Models.Label, orgName: string | null, repo: Pick<RepoName, 'ownerName' | 'name'> | null): IssueLabelView {
  return rowWith('Label', label, {
    org: orgName === null ? null : { name: orgName },
    repo: repo && { ownerName: repo.ownerName, name: repo.name },
  });
}

/** Relations of an issue its caller already has (a write that just linked them), which the view does not read again. */
export type KnownIssueRelations = Partial<Pick<IssueView, 'labels' | 'assignees' | 'projects' | 'attachments'>>;

/**
 * Loads the relations of many issues in a constant number of statements on the read path (src/db/readPath.ts),
 * keeping the input order: each relation with its link rows in one join (labels, assignees, projects), posters
 * not in `knownUsers`, attachments, and only when some issue has them milestones, pull requests not in
 * `knownPulls` and repositories not `known`; then names of label owners not at hand. A relation in `knownRelations`
 * (by issue id) is taken as given, and its statement runs only for the issues that lack it. User rows never carry
 * the password hash.
 */
export async function loadIssueViews(
  db: DbLike,
  issues: readonly Models.Issue[],
  known: readonly RepoName[] = [],
  knownPulls: readonly Models.PullRequest[] = [],
  knownUsers: readonly UserView[] = [],
  knownRelations: ReadonlyMap<number, KnownIssueRelations> = new Map(),
): Promise<IssueView[]> {
  if (issues.length === 0) return [];
  const ids = issues.map((i) => i.id);
  /** The issues whose `relation` is not known: each relation is read only for them (no statement when none). */
  const unknown = (relation: keyof KnownIssueRelations): number[] => ids.filter((id) => !knownRelations.get(id)?.[relation]);
  const [labelIds, assigneeIds, projectIds, attachmentIds] = [
    unknown('labels'),
    unknown('assignees'),
    unknown('projects'),
    unknown('attachments'),
  ];
  const milestoneIds = [...new Set(issues.map((i) => i.milestoneId).filter((id): id is number => id !== null))];
  const pullIds = issues.filter((i) => i.isPull && !knownPulls.some((p) => p.issueId === i.id)).map((i) => i.id);
  const posterIds = [
    ...new Set(issues.flatMap((i) => (i.posterId === null || knownUsers.some((u) => u.id === i.posterId) ? [] : [i.posterId]))),
  ];
  const [repoById, labelsByIssue, { assignees, posters }, milestones, pulls, projectRows, attachments] = await Promise.all([
    repoNamesById(
      db,
      issues.map((i) => i.repoId),
      known,
    ),
    labelIds.length ? issueLabelViews(db, labelIds) : new Map<number, IssueLabelView[]>(),
    viewUsers(db, assigneeIds, posterIds),
    milestoneIds.length ? readRows(db, 'Milestone', 'SELECT * FROM "Milestone" WHERE "id" IN (?)', [milestoneIds]) : [],
    pullIds.length ? readRows(db, 'PullRequest', 'SELECT * FROM "PullRequest" WHERE "issueId" IN (?)', [pullIds]) : [],
    projectIds.length
      ? readRows<'Project', Linked<Models.Project>>(
          db,
          'Project',
          sql`SELECT ${columnsOf('Project', 'p')}, pi."issueId" AS "linkIssueId" FROM "ProjectIssue" pi JOIN "Project" p ON p."id" = pi."projectId" WHERE pi."issueId" IN (?) ORDER BY pi."projectId"`,
          [projectIds],
        )
      : [],
    attachmentIds.length
      ? readRows(db, 'Attachment', 'SELECT * FROM "Attachment" WHERE "issueId" IN (?) AND "commentId" IS NULL ORDER BY "id"', [
          attachmentIds,
        ])
      : [],
  ]);
  const posterById = new Map([...knownUsers, ...posters].map((u) => [u.id, u]));
  const milestoneById = new Map(milestones.map((m) => [m.id, m]));
  const pullByIssue = new Map([...knownPulls, ...pulls].map((p) => [p.issueId, p]));
  const projectsByIssue = groupByIssue(projectRows);
  return issues.map((issue) => {
    const repo = repoById.get(issue.repoId);
    if (!repo) throw new NotFoundError('repository does not exist', { repoId: issue.repoId });
    const known = knownRelations.get(issue.id);
    return {
      issue,
      repo,
      poster: issue.posterId === null ? null : (posterById.get(issue.posterId) ?? null),
      labels: known?.labels ? [...known.labels].sort(byLabelName) : (labelsByIssue.get(issue.id) ?? []),
      milestone: issue.milestoneId === null ? null : (milestoneById.get(issue.milestoneId) ?? null),
      assignees: known?.assignees ?? assignees.get(issue.id) ?? [],
      pull: pullByIssue.get(issue.id) ?? null,
      projects: known?.projects ?? projectsByIssue.get(issue.id) ?? [],
      attachments: known?.attachments ?? attachments.filter((a) => a.issueId === issue.id),
    };
  });
}

/**
 * The users of issue views: the assignees of the `assigneeIds` issues, with the issue each is linked to, in the order
 * they were assigned, and the posters `posterIds`. One statement for both (a poster row has no link; no statement when
 * neither is asked): every view of an issue that is not its viewer's own needs both.
 */
async function viewUsers(
  db: DbLike,
  assigneeIds: readonly number[],
  posterIds: readonly number[],
): Promise<{ assignees: Map<number, UserView[]>; posters: UserView[] }> {
  const parts: [string, number[]][] = [];
  if (assigneeIds.length)
    parts.push([
      sql`SELECT ${VIEW_USER_SELECT}, a."issueId" AS "linkIssueId", a."id" AS "linkOrder" FROM "IssueAssignee" a JOIN "User" u ON u."id" = a."assigneeId" WHERE a."issueId" IN (?)`,
      [...assigneeIds],
    ]);
  if (posterIds.length)
    parts.push([
      sql`SELECT ${VIEW_USER_SELECT}, NULL AS "linkIssueId", 0 AS "linkOrder" FROM "User" u WHERE u."id" IN (?)`,
      [...posterIds],
    ]);
  const [first, second] = parts;
  if (!first) return { assignees: new Map(), posters: [] };
  const rows = await readRows<'User', UserView & { linkIssueId: number | null; linkOrder: number }>(
    db,
    'User',
    second ? sql`${first[0]} UNION ALL ${second[0]} ORDER BY "linkOrder"` : sql`${first[0]} ORDER BY "linkOrder"`,
    parts.map(([, ids]) => ids),
  );
  // The rows are handed out as they are, their link columns with them (nothing reads those as a user's): copying
  // ~40 columns to leave two out cost ~1.5 µs a user on Node 20 (an object rest).
  return {
    assignees: groupBy(rows, (r) => r.linkIssueId ?? undefined),
    posters: rows.filter((r) => r.linkIssueId === null),
  };
}

/** One issue with its relations (`knownUsers`: user rows at hand, the viewer's for one, not read again). */
export async function loadIssueView(
  db: DbLike,
  issue: Models.Issue,
  known: readonly RepoName[] = [],
  knownUsers: readonly UserView[] = [],
  relations: KnownIssueRelations = {},
): Promise<IssueView> {
  const [view] = await loadIssueViews(db, [issue], known, [], knownUsers, new Map([[issue.id, relations]]));
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
