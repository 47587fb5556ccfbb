// The data set and hand-written baseline of bench/issues.ts (also used to profile the GraphQL query in-process):
// one public repository with issues, labels, assignees, comments and reactions; the nested GraphQL query; and the
// same JSON built by hand-written SQL (prepared statements on better-sqlite3, or on a `pg` client).
import Database from 'better-sqlite3';
import type { buildApp } from '../src/app.ts';
import type { Models } from '../src/db/client.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';

export const ISSUES = 60;
export const COMMENTS_PER_ISSUE = 12;

export const QUERY = `query Bench($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    issues(first: 50) {
      nodes {
        number title state
        author { login }
        labels(first: 10) { nodes { name color } }
        assignees(first: 10) { nodes { login } }
        comments(first: 10) { nodes { body author { login } } }
        reactionGroups { content reactors { totalCount } }
      }
    }
  }
}`;

/** Seeds one public repository: issues with labels, assignees, comments and reactions. */
export async function seed(app: Awaited<ReturnType<typeof buildApp>>): Promise<void> {
  const db = app.deps.db;
  const sys = createSystemContext(app.deps);
  const users: Models.User[] = [];
  for (const name of ['bench', 'ann', 'bob', 'cyd', 'dee']) {
    users.push(
      await userService.createUser(sys, {
        username: name,
        email: `${name}@example.com`,
        password: 'bench-password-1',
        mustChangePassword: false,
      }),
    );
  }
  const owner = users[0]!;
  const repo = await db.repository.create({
    data: {
      ownerId: owner.id,
      ownerName: owner.name,
      name: 'tracker',
      lowerName: 'tracker',
      isEmpty: true,
      units: { create: [{ type: 'CODE' }, { type: 'ISSUES' }, { type: 'PULL_REQUESTS' }] },
    },
  });
  const labels = [];
  for (const [i, name] of ['bug', 'feature', 'docs', 'kind/ui', 'kind/api'].entries()) {
    labels.push(await db.label.create({ data: { repoId: repo.id, name, color: `00${i}0aa`, exclusive: name.startsWith('kind/') } }));
  }
  for (let n = 1; n <= ISSUES; n++) {
    const issue = await db.issue.create({
      data: {
        repoId: repo.id,
        index: n,
        posterId: users[n % users.length]!.id,
        title: `Issue number ${n}`,
        content: `Body of issue ${n}`,
        numComments: COMMENTS_PER_ISSUE,
      },
    });
    await db.issueLabel.createMany({ data: [labels[n % 3]!, labels[3 + (n % 2)]!].map((l) => ({ issueId: issue.id, labelId: l.id })) });
    await db.issueAssignee.createMany({
      data: [users[1 + (n % 4)]!, users[(n + 2) % 5]!]
        .filter((u, i, a) => a.indexOf(u) === i)
        .map((u) => ({ issueId: issue.id, assigneeId: u.id })),
    });
    await db.comment.createMany({
      data: Array.from({ length: COMMENTS_PER_ISSUE }, (_, c) => ({
        type: 'COMMENT' as const,
        issueId: issue.id,
        posterId: users[c % users.length]!.id,
        content: `comment ${c} on ${n}`,
      })),
    });
    await db.reaction.createMany({
      data: users.flatMap((u, i) => (i <= n % 5 ? [{ type: i % 2 ? 'heart' : '+1', issueId: issue.id, userId: u.id }] : [])),
    });
  }
  await db.issueIndex.create({ data: { repoId: repo.id, maxIndex: ISSUES } });
  await db.repository.update({ where: { id: repo.id }, data: { numIssues: ISSUES } });
}

/** GitHub's ReactionContent names for Gitea's reaction types, in display order (every group is listed, as GitHub). */
const CONTENT: Record<string, string> = {
  '+1': 'THUMBS_UP',
  '-1': 'THUMBS_DOWN',
  laugh: 'LAUGH',
  hooray: 'HOORAY',
  confused: 'CONFUSED',
  heart: 'HEART',
  rocket: 'ROCKET',
  eyes: 'EYES',
};

/** The rows the hand-written baselines read: one statement per relation. */
export interface BaselineRows {
  issues: { id: number; number: number; title: string; closed: number | boolean; author: string | null }[];
  labels: { issueId: number; name: string; color: string }[];
  assignees: { issueId: number; login: string }[];
  comments: { issueId: number; body: string; login: string | null }[];
  reactions: { issueId: number; type: string; n: number }[];
}

const group = <T extends { issueId: number }>(rows: T[]): Map<number, T[]> => {
  const m = new Map<number, T[]>();
  for (const r of rows) m.set(r.issueId, [...(m.get(r.issueId) ?? []), r]);
  return m;
};

/** The GraphQL query's JSON from the baseline's rows, grouped in memory. */
export function assemble(rows: BaselineRows | null): unknown {
  if (!rows) return { data: { repository: null } };
  const labels = group(rows.labels);
  const assignees = group(rows.assignees);
  const comments = group(rows.comments);
  const reactions = group(rows.reactions);
  return {
    data: {
      repository: {
        issues: {
          nodes: rows.issues.map((i) => ({
            number: i.number,
            title: i.title,
            state: i.closed ? 'CLOSED' : 'OPEN',
            author: i.author === null ? null : { login: i.author },
            labels: { nodes: (labels.get(i.id) ?? []).map((l) => ({ name: l.name, color: l.color })) },
            assignees: { nodes: (assignees.get(i.id) ?? []).map((a) => ({ login: a.login })) },
            comments: {
              nodes: (comments.get(i.id) ?? []).map((c) => ({ body: c.body, author: c.login === null ? null : { login: c.login } })),
            },
            reactionGroups: Object.entries(CONTENT).map(([type, content]) => ({
              content,
              reactors: { totalCount: Number((reactions.get(i.id) ?? []).find((r) => r.type === type)?.n ?? 0) },
            })),
          })),
        },
      },
    },
  };
}

/** The GraphQL query's JSON built with hand-written SQL on better-sqlite3 (prepared statements, same file). */
export function handWritten(file: string): (owner: string, name: string) => unknown {
  const sql = new Database(file, { readonly: true });
  const repoStmt = sql.prepare('SELECT id FROM "Repository" WHERE "ownerName" = ? AND "name" = ?');
  const issuesStmt = sql.prepare(
    `SELECT i.id, i."index" AS number, i.title, i."isClosed" AS closed, u.name AS author FROM "Issue" i
     LEFT JOIN "User" u ON u.id = i."posterId" WHERE i."repoId" = ? AND i."isPull" = 0 ORDER BY i."index" DESC LIMIT 50`,
  );
  const labelsStmt = sql.prepare(
    `SELECT il."issueId" AS issueId, l.name, l.color FROM "IssueLabel" il JOIN "Label" l ON l.id = il."labelId"
     WHERE il."issueId" IN (SELECT value FROM json_each(?)) ORDER BY il.id`,
  );
  const assigneesStmt = sql.prepare(
    `SELECT a."issueId" AS issueId, u.name AS login FROM "IssueAssignee" a JOIN "User" u ON u.id = a."assigneeId"
     WHERE a."issueId" IN (SELECT value FROM json_each(?)) ORDER BY a.id`,
  );
  const commentsStmt = sql.prepare(
    `SELECT issueId, body, login FROM (
       SELECT c."issueId" AS issueId, c.content AS body, u.name AS login,
              ROW_NUMBER() OVER (PARTITION BY c."issueId" ORDER BY c.id) AS rn
       FROM "Comment" c LEFT JOIN "User" u ON u.id = c."posterId"
       WHERE c."issueId" IN (SELECT value FROM json_each(?)) AND c.type = 'COMMENT'
     ) WHERE rn <= 10 ORDER BY issueId, rn`,
  );
  const reactionsStmt = sql.prepare(
    `SELECT "issueId" AS issueId, type, COUNT(*) AS n, MIN(id) AS first FROM "Reaction"
     WHERE "issueId" IN (SELECT value FROM json_each(?)) AND "commentId" = 0 GROUP BY "issueId", type ORDER BY first`,
  );
  return (owner, name) => {
    const repo = repoStmt.get(owner, name) as { id: number } | undefined;
    if (!repo) return assemble(null);
    const issues = issuesStmt.all(repo.id) as BaselineRows['issues'];
    const ids = JSON.stringify(issues.map((i) => i.id));
    return assemble({
      issues,
      labels: labelsStmt.all(ids) as BaselineRows['labels'],
      assignees: assigneesStmt.all(ids) as BaselineRows['assignees'],
      comments: commentsStmt.all(ids) as BaselineRows['comments'],
      reactions: reactionsStmt.all(ids) as BaselineRows['reactions'],
    });
  };
}
