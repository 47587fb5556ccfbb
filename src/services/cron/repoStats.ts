import type { Db } from '../../db/client.ts';

/** Fields of one row that disagree with a recount: field → the right value. */
type Fixes = Record<string, number>;

/** Counts per key from a groupBy result. */
function countsBy<K extends string>(
  rows: ReadonlyArray<Record<K, number | null> & { _count: { _all: number } }>,
  key: K,
): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) {
    const k = r[key];
    if (k !== null) out.set(k, (out.get(k) ?? 0) + r._count._all);
  }
  return out;
}

/** The stored values of `row` that differ from `expected`. */
function diff(row: Record<string, unknown>, expected: Fixes): Fixes | null {
  const fixes: Fixes = {};
  for (const [field, value] of Object.entries(expected)) if (row[field] !== value) fixes[field] = value;
  return Object.keys(fixes).length ? fixes : null;
}

/** What a recount repaired, per table. */
export interface StatsReport {
  checked: Record<string, number>;
  repaired: Record<string, number>;
}

async function repositories(db: Db, report: StatsReport): Promise<void> {
  const [repos, watches, stars, forks, issues, milestones, projects] = await Promise.all([
    db.repository.findMany({
      select: {
        id: true,
        numWatches: true,
        numStars: true,
        numForks: true,
        numIssues: true,
        numClosedIssues: true,
        numPulls: true,
        numClosedPulls: true,
        numMilestones: true,
        numClosedMilestones: true,
        numProjects: true,
        numClosedProjects: true,
      },
    }),
    db.watch.groupBy({ by: ['repoId'], where: { mode: { in: ['NORMAL', 'AUTO'] } }, _count: { _all: true } }),
    db.star.groupBy({ by: ['repoId'], _count: { _all: true } }),
    db.repository.groupBy({ by: ['forkId'], where: { forkId: { not: null } }, _count: { _all: true } }),
    db.issue.groupBy({ by: ['repoId', 'isPull', 'isClosed'], _count: { _all: true } }),
    db.milestone.groupBy({ by: ['repoId', 'isClosed'], _count: { _all: true } }),
    db.project.groupBy({ by: ['repoId', 'isClosed'], where: { type: 'REPOSITORY', repoId: { not: null } }, _count: { _all: true } }),
  ]);
  const w = countsBy(watches, 'repoId');
  const s = countsBy(stars, 'repoId');
  const f = countsBy(forks, 'forkId');
  const split = <T extends { repoId: number | null; isClosed: boolean; _count: { _all: number } }>(rows: T[], keep: (r: T) => boolean) => ({
    all: countsBy(rows.filter(keep), 'repoId'),
    closed: countsBy(
      rows.filter((r) => keep(r) && r.isClosed),
      'repoId',
    ),
  });
  const is = split(issues, (r) => !r.isPull);
  const pr = split(issues, (r) => r.isPull);
  const ms = split(milestones, () => true);
  const pj = split(projects, () => true);
  for (const repo of repos) {
    const fixes = diff(repo, {
      numWatches: w.get(repo.id) ?? 0,
      numStars: s.get(repo.id) ?? 0,
      numForks: f.get(repo.id) ?? 0,
      numIssues: is.all.get(repo.id) ?? 0,
      numClosedIssues: is.closed.get(repo.id) ?? 0,
      numPulls: pr.all.get(repo.id) ?? 0,
      numClosedPulls: pr.closed.get(repo.id) ?? 0,
      numMilestones: ms.all.get(repo.id) ?? 0,
      numClosedMilestones: ms.closed.get(repo.id) ?? 0,
      numProjects: pj.all.get(repo.id) ?? 0,
      numClosedProjects: pj.closed.get(repo.id) ?? 0,
    });
    if (fixes) await db.repository.update({ where: { id: repo.id }, data: fixes });
    if (fixes) report.repaired.repository = (report.repaired.repository ?? 0) + 1;
  }
  report.checked.repository = repos.length;
}

async function issues(db: Db, report: StatsReport): Promise<void> {
  const [rows, comments] = await Promise.all([
    db.issue.findMany({ select: { id: true, numComments: true } }),
    // Gitea ConversationCountedCommentType (services/issue/comment.ts).
    db.comment.groupBy({ by: ['issueId'], where: { type: { in: ['COMMENT', 'REVIEW'] } }, _count: { _all: true } }),
  ]);
  const c = countsBy(comments, 'issueId');
  for (const issue of rows) {
    const fixes = diff(issue, { numComments: c.get(issue.id) ?? 0 });
    if (!fixes) continue;
    await db.issue.update({ where: { id: issue.id }, data: fixes });
    report.repaired.issue = (report.repaired.issue ?? 0) + 1;
  }
  report.checked.issue = rows.length;
}

async function labelsAndMilestones(db: Db, report: StatsReport): Promise<void> {
  const [labels, onLabels, closedOnLabels, milestones, inMilestones] = await Promise.all([
    db.label.findMany({ select: { id: true, numIssues: true, numClosedIssues: true } }),
    db.issueLabel.groupBy({ by: ['labelId'], _count: { _all: true } }),
    db.issueLabel.groupBy({ by: ['labelId'], where: { issue: { isClosed: true } }, _count: { _all: true } }),
    db.milestone.findMany({ select: { id: true, numIssues: true, numClosedIssues: true, completeness: true } }),
    db.issue.groupBy({ by: ['milestoneId', 'isClosed'], where: { milestoneId: { not: null } }, _count: { _all: true } }),
  ]);
  const all = countsBy(onLabels, 'labelId');
  const closed = countsBy(closedOnLabels, 'labelId');
  for (const label of labels) {
    const fixes = diff(label, { numIssues: all.get(label.id) ?? 0, numClosedIssues: closed.get(label.id) ?? 0 });
    if (!fixes) continue;
    await db.label.update({ where: { id: label.id }, data: fixes });
    report.repaired.label = (report.repaired.label ?? 0) + 1;
  }
  const mAll = countsBy(inMilestones, 'milestoneId');
  const mClosed = countsBy(
    inMilestones.filter((r) => r.isClosed),
    'milestoneId',
  );
  for (const m of milestones) {
    const numIssues = mAll.get(m.id) ?? 0;
    const numClosedIssues = mClosed.get(m.id) ?? 0;
    // Gitea UpdateMilestoneCounters: completeness is the closed share, in whole percent.
    const completeness = numIssues ? Math.floor((numClosedIssues * 100) / numIssues) : 0;
    const fixes = diff(m, { numIssues, numClosedIssues, completeness });
    if (!fixes) continue;
    await db.milestone.update({ where: { id: m.id }, data: fixes });
    report.repaired.milestone = (report.repaired.milestone ?? 0) + 1;
  }
  report.checked.label = labels.length;
  report.checked.milestone = milestones.length;
}

async function accounts(db: Db, report: StatsReport): Promise<void> {
  const [users, repos, stars, followers, following, members, teams, teamRows, teamRepos, teamUsers] = await Promise.all([
    db.user.findMany({
      select: {
        id: true,
        type: true,
        numRepos: true,
        numStars: true,
        numFollowers: true,
        numFollowing: true,
        numMembers: true,
        numTeams: true,
      },
    }),
    db.repository.groupBy({ by: ['ownerId'], _count: { _all: true } }),
    db.star.groupBy({ by: ['userId'], _count: { _all: true } }),
    db.follow.groupBy({ by: ['followId'], _count: { _all: true } }),
    db.follow.groupBy({ by: ['userId'], _count: { _all: true } }),
    db.orgUser.groupBy({ by: ['orgId'], _count: { _all: true } }),
    db.team.groupBy({ by: ['orgId'], _count: { _all: true } }),
    db.team.findMany({ select: { id: true, numRepos: true, numMembers: true } }),
    db.teamRepo.groupBy({ by: ['teamId'], _count: { _all: true } }),
    db.teamUser.groupBy({ by: ['teamId'], _count: { _all: true } }),
  ]);
  const r = countsBy(repos, 'ownerId');
  const s = countsBy(stars, 'userId');
  const fr = countsBy(followers, 'followId');
  const fg = countsBy(following, 'userId');
  const m = countsBy(members, 'orgId');
  const t = countsBy(teams, 'orgId');
  for (const user of users) {
    const expected: Fixes = {
      numRepos: r.get(user.id) ?? 0,
      numStars: s.get(user.id) ?? 0,
      numFollowers: fr.get(user.id) ?? 0,
      numFollowing: fg.get(user.id) ?? 0,
    };
    if (user.type === 'ORGANIZATION') Object.assign(expected, { numMembers: m.get(user.id) ?? 0, numTeams: t.get(user.id) ?? 0 });
    const fixes = diff(user, expected);
    if (!fixes) continue;
    await db.user.update({ where: { id: user.id }, data: fixes });
    report.repaired.user = (report.repaired.user ?? 0) + 1;
  }
  const tr = countsBy(teamRepos, 'teamId');
  const tu = countsBy(teamUsers, 'teamId');
  for (const team of teamRows) {
    const fixes = diff(team, { numRepos: tr.get(team.id) ?? 0, numMembers: tu.get(team.id) ?? 0 });
    if (!fixes) continue;
    await db.team.update({ where: { id: team.id }, data: fixes });
    report.repaired.team = (report.repaired.team ?? 0) + 1;
  }
  report.checked.user = users.length;
  report.checked.team = teamRows.length;
}

/**
 * Gitea check_repo_stats (models/repo CheckRepoStats), over every counter we keep: recounts repositories'
 * watches, stars, forks, issues, pull requests, milestones and projects; issues' comments; labels' and
 * milestones' issues (and completeness); accounts' repositories, stars, followers, following, members and
 * teams; teams' repositories and members — and writes back every value that drifted.
 */
export async function checkRepoStats(db: Db): Promise<StatsReport> {
  const report: StatsReport = { checked: {}, repaired: {} };
  await repositories(db, report);
  await issues(db, report);
  await labelsAndMilestones(db, report);
  await accounts(db, report);
  return report;
}
