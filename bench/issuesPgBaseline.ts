// The hand-written baseline of bench/issues.ts on PostgreSQL: the same statements as the better-sqlite3 one,
// as named prepared statements on one `pg` client.
import pg from 'pg';
import { assemble, type BaselineRows } from './issuesFixture.ts';

const SQL = {
  repo: 'SELECT id FROM "Repository" WHERE "ownerName" = $1 AND "name" = $2',
  issues: `SELECT i.id, i."index" AS number, i.title, i."isClosed" AS closed, u.name AS author FROM "Issue" i
    LEFT JOIN "User" u ON u.id = i."posterId" WHERE i."repoId" = $1 AND NOT i."isPull" ORDER BY i."index" DESC LIMIT 50`,
  labels: `SELECT il."issueId" AS "issueId", l.name, l.color FROM "IssueLabel" il JOIN "Label" l ON l.id = il."labelId"
    WHERE il."issueId" = ANY($1::int[]) ORDER BY il.id`,
  assignees: `SELECT a."issueId" AS "issueId", u.name AS login FROM "IssueAssignee" a JOIN "User" u ON u.id = a."assigneeId"
    WHERE a."issueId" = ANY($1::int[]) ORDER BY a.id`,
  comments: `SELECT "issueId", body, login FROM (
      SELECT c."issueId", c.content AS body, u.name AS login, ROW_NUMBER() OVER (PARTITION BY c."issueId" ORDER BY c.id) AS rn
      FROM "Comment" c LEFT JOIN "User" u ON u.id = c."posterId" WHERE c."issueId" = ANY($1::int[]) AND c.type = 'COMMENT'
    ) t WHERE rn <= 10 ORDER BY "issueId", rn`,
  reactions: `SELECT "issueId", type, COUNT(*)::int AS n, MIN(id) AS first FROM "Reaction"
    WHERE "issueId" = ANY($1::int[]) AND "commentId" = 0 GROUP BY "issueId", type ORDER BY first`,
} as const;

/** Builds the GraphQL query's JSON with hand-written SQL on PostgreSQL; `close` ends its connection. */
export async function handWrittenPg(
  url: string,
): Promise<{ build(owner: string, name: string): Promise<unknown>; close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const run = async <T>(name: keyof typeof SQL, values: unknown[]): Promise<T[]> =>
    (await client.query({ name: `bench_${name}`, text: SQL[name], values })).rows as T[];
  return {
    async build(owner, name) {
      const [repo] = await run<{ id: number }>('repo', [owner, name]);
      if (!repo) return assemble(null);
      const issues = await run<BaselineRows['issues'][number]>('issues', [repo.id]);
      const ids = issues.map((i) => i.id);
      // One client runs one statement at a time.
      const labels = await run<BaselineRows['labels'][number]>('labels', [ids]);
      const assignees = await run<BaselineRows['assignees'][number]>('assignees', [ids]);
      const comments = await run<BaselineRows['comments'][number]>('comments', [ids]);
      const reactions = await run<BaselineRows['reactions'][number]>('reactions', [ids]);
      return assemble({ issues, labels, assignees, comments, reactions });
    },
    close: () => client.end(),
  };
}
