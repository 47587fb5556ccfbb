// The hand-written baseline of bench/writes.ts: a Fastify app serving the same write routes as Forgegraph's REST
// API from a minimal transaction of prepared statements (writeBaselineDb.ts) and, for pull requests, the same git
// commands run directly. Per request: the token's user (1 statement), the repository (1), then the write. It
// knows the bench's data (its own public repository, labels and assignees valid, no milestones, no protection),
// checks nothing else and answers `{id, number}`: what it measures is the floor of writing those rows — every row
// Forgegraph inserts for the write (bench/writes.ts compares the tables each side inserted into), the feed's rows
// for the actor and the repository's watchers and the durable jobs (notifications, Actions triggers, push work)
// included, in the write's one transaction.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { hashToken } from '../src/auth/token.ts';
import { repoPath } from '../src/git/repoPath.ts';
import type { BaselineDb, Run } from './writeBaselineDb.ts';

const exec = promisify(execFile);

/** `git --git-dir <dir> args…`, stdout trimmed. */
export async function git(dir: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await exec('git', ['--git-dir', dir, ...args], { env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  return stdout.trim();
}

type Params = { o: string; r: string; n: string };
const place = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const rows = (n: number, width: number) => Array.from({ length: n }, () => `(${place(width)})`).join(', ');

/** The feed's rows of an event: one for the actor and one per watcher of the repository (as Gitea's feed). */
async function feed(
  run: Run,
  repoId: number,
  actorId: number,
  opType: string,
  content: string,
  extra: { commentId?: number; refName?: string } = {},
) {
  const watchers = await run(`SELECT "userId" FROM "Watch" WHERE "repoId" = ? AND "mode" IN ('NORMAL', 'AUTO') AND "userId" <> ?`, [
    repoId,
    actorId,
  ]);
  const owners = [actorId, ...watchers.map((w) => Number(w.userId))];
  const now = new Date();
  await run(
    `INSERT INTO "Action" ("createdAt", "userId", "opType", "actUserId", "repoId", "commentId", "refName", "content", "isPrivate") VALUES ${rows(owners.length, 9)}`,
    owners.flatMap((u) => [now, u, opType, actorId, repoId, extra.commentId ?? null, extra.refName ?? '', content, false]),
  );
}

/** Durable jobs, one statement: `[kind, payload, maxAttempts]`. */
function jobs(run: Run, list: [string, unknown, number][]) {
  const now = new Date();
  return run(
    `INSERT INTO "Job" ("runAt", "createdAt", "updatedAt", "kind", "payload", "maxAttempts") VALUES ${rows(list.length, 6)}`,
    list.flatMap(([kind, payload, max]) => [now, now, now, kind, JSON.stringify(payload), max]),
  );
}

const fanOut = (
  event: string,
  issueId: number,
  actorId: number,
  commentId: number | null,
  audience = 'broadcast',
): [string, unknown, number] => ['notification.fanOut', { event, issueId, actorId, commentId, audience, targets: [], mentionsIn: null }, 8];
const trigger = (id: number, actorId: number): [string, unknown, number] => [
  'actions.trigger',
  { kind: 'issue', id, action: 'opened', actorId },
  5,
];

/**
 * `git push` of a new branch from the clone to the baseline's bare repository, then its rows as Forgegraph's push
 * writes them: `git log` of its new commits (the bench's push branches start from main), the branch, the feed and
 * the push jobs.
 */
export async function baselinePush(db: BaselineDb, push: () => Promise<void>, dir: string, branch: string): Promise<void> {
  await push();
  const ref = `refs/heads/${branch}`;
  const log = await git(dir, ['log', '-n', '5', '--format=%H%x1f%s%x1f%an%x1f%ae%x1f%ct', ref, '^refs/heads/main']);
  const commits = log.split('\n').map((line) => {
    const [sha, message, name, email, time] = line.split('\x1f');
    return {
      Sha1: sha!,
      Message: message!,
      AuthorName: name!,
      AuthorEmail: email!,
      Timestamp: new Date(Number(time) * 1000).toISOString(),
    };
  });
  const head = commits[0]!;
  await db.tx(async (run) => {
    const [repo] = await run(`SELECT "id", "ownerId" FROM "Repository" WHERE "lowerName" = 'base'`);
    const [repoId, pusherId] = [Number(repo!.id), Number(repo!.ownerId)];
    const now = new Date();
    await run(
      `INSERT INTO "Branch" ("repoId", "name", "commitId", "commitMessage", "pusherId", "commitTime", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [repoId, branch, head.Sha1, head.Message, pusherId, new Date(head.Timestamp), now, now],
    );
    await feed(run, repoId, pusherId, 'COMMIT_REPO', JSON.stringify({ Commits: commits, HeadCommit: head, Len: commits.length }), {
      refName: ref,
    });
    const update = { ref, oldSha: '0'.repeat(40), newSha: head.Sha1 };
    await jobs(run, [
      ['repo.push', { repoId, pusherId, updates: [update], applied: [update] }, 5],
      ['repo.upkeep', { repoId }, 3],
    ]);
  });
}

export function startWriteBaseline(db: BaselineDb, repositoriesDir: string): FastifyInstance {
  const app = Fastify();
  const viewer = async (req: FastifyRequest): Promise<number> => {
    const token = /^token (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const [row] = await db.query('SELECT "userId" FROM "AccessToken" WHERE "tokenHash" = ?', [hashToken(token)]);
    if (!row) throw Object.assign(new Error('unauthorized'), { statusCode: 401 });
    return Number(row.userId);
  };
  const repoOf = async (o: string, r: string) => {
    const sql = `SELECT r."id", r."ownerName", r."name", r."defaultBranch" FROM "Repository" r JOIN "User" u ON u."id" = r."ownerId"
      WHERE u."lowerName" = ? AND r."lowerName" = ?`;
    const [row] = await db.query(sql, [o.toLowerCase(), r.toLowerCase()]);
    if (!row) throw Object.assign(new Error('not found'), { statusCode: 404 });
    return { id: Number(row.id), dir: repoPath(repositoriesDir, String(row.ownerName), String(row.name)) };
  };
  const issueOf = async (run: Run, repoId: number, index: string) =>
    Number((await run('SELECT "id" FROM "Issue" WHERE "repoId" = ? AND "index" = ?', [repoId, Number(index)]))[0]!.id);
  const refreshLabels = (run: Run, ids: number[]) =>
    ids.length
      ? run(
          `UPDATE "Label" SET "numIssues" = (SELECT COUNT(*) FROM "IssueLabel" il WHERE il."labelId" = "Label"."id"),
        "numClosedIssues" = (SELECT COUNT(*) FROM "IssueLabel" il JOIN "Issue" i ON i."id" = il."issueId" WHERE il."labelId" = "Label"."id" AND i."isClosed" = ?),
        "updatedAt" = ? WHERE "id" IN (${place(ids.length)})`,
          [true, new Date(), ...ids],
        )
      : [];
  /** The number, the issue row, the repository counter, labels, assignees and their timeline comments. */
  const newIssue = async (
    run: Run,
    repoId: number,
    userId: number,
    input: { title: string; body?: string; labels?: number[] },
    assignees: number[],
    isPull = false,
  ) => {
    const now = new Date();
    const [idx] = await run(
      `INSERT INTO "IssueIndex" ("repoId", "maxIndex") VALUES (?, 1) ON CONFLICT ("repoId") DO UPDATE SET "maxIndex" = "IssueIndex"."maxIndex" + 1 RETURNING "maxIndex"`,
      [repoId],
    );
    const index = Number(idx!.maxIndex);
    const [row] = await run(
      `INSERT INTO "Issue" ("repoId", "index", "posterId", "title", "content", "isPull", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id"`,
      [repoId, index, userId, input.title, input.body ?? '', isPull, now, now],
    );
    const id = Number(row!.id);
    await run(`UPDATE "Repository" SET ${isPull ? '"numPulls" = "numPulls"' : '"numIssues" = "numIssues"'} + 1 WHERE "id" = ?`, [repoId]);
    const labels = input.labels ?? [];
    if (labels.length)
      await run(
        `INSERT INTO "IssueLabel" ("issueId", "labelId") VALUES ${labels.map(() => '(?, ?)').join(', ')}`,
        labels.flatMap((l) => [id, l]),
      );
    if (assignees.length)
      await run(
        `INSERT INTO "IssueAssignee" ("issueId", "assigneeId") VALUES ${assignees.map(() => '(?, ?)').join(', ')}`,
        assignees.flatMap((a) => [id, a]),
      );
    const comments: [string, number | null, number | null][] = [
      ...labels.map((l) => ['LABEL', l, null] as [string, number, null]),
      ...assignees.map((a) => ['ASSIGNEES', null, a] as [string, null, number]),
    ];
    if (comments.length)
      await run(
        `INSERT INTO "Comment" ("type", "posterId", "issueId", "labelId", "assigneeId", "content", "createdAt", "updatedAt") VALUES ${comments.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        comments.flatMap(([type, l, a]) => [type, userId, id, l, a, l === null ? '' : '1', now, now]),
      );
    await refreshLabels(run, labels);
    if (isPull)
      await run(
        `INSERT INTO "Comment" ("type", "posterId", "issueId", "content", "createdAt", "updatedAt") VALUES ('PULL_PUSH', ?, ?, ?, ?, ?)`,
        [userId, id, '{"is_force_push":false,"commit_ids":[]}', now, now],
      );
    await feed(run, repoId, userId, isPull ? 'CREATE_PULL_REQUEST' : 'CREATE_ISSUE', `${index}|${input.title}`);
    await jobs(run, [fanOut('issue.created', id, userId, null, isPull ? 'newPull' : 'broadcast'), trigger(id, userId)]);
    return { id, index };
  };

  app.post<{ Params: Params; Body: { title: string; body?: string; labels?: number[]; assignees?: string[] } }>(
    '/api/v1/repos/:o/:r/issues',
    async (req, reply) => {
      const userId = await viewer(req);
      const repo = await repoOf(req.params.o, req.params.r);
      const names = req.body.assignees ?? [];
      const assignees = names.length
        ? (await db.query(`SELECT "id" FROM "User" WHERE "lowerName" IN (${place(names.length)})`, names)).map((u) => Number(u.id))
        : [];
      const { id, index } = await db.tx((run) => newIssue(run, repo.id, userId, req.body, assignees));
      return reply.code(201).send({ id, number: index });
    },
  );
  app.post<{ Params: Params; Body: { body: string } }>('/api/v1/repos/:o/:r/issues/:n/comments', async (req, reply) => {
    const userId = await viewer(req);
    const repo = await repoOf(req.params.o, req.params.r);
    const id = await db.tx(async (run) => {
      const issueId = await issueOf(run, repo.id, req.params.n);
      const now = new Date();
      const [c] = await run(
        `INSERT INTO "Comment" ("type", "posterId", "issueId", "content", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?) RETURNING "id"`,
        ['COMMENT', userId, issueId, req.body.body, now, now],
      );
      await run('UPDATE "Issue" SET "numComments" = "numComments" + 1, "updatedAt" = ? WHERE "id" = ?', [now, issueId]);
      const commentId = Number(c!.id);
      await feed(run, repo.id, userId, 'COMMENT_ISSUE', `${req.params.n}|${req.body.body.slice(0, 200)}`, { commentId });
      await jobs(run, [fanOut('comment.created', issueId, userId, commentId)]);
      return commentId;
    });
    return reply.code(201).send({ id });
  });
  app.post<{ Params: Params; Body: { labels: number[] } }>('/api/v1/repos/:o/:r/issues/:n/labels', async (req) => {
    const userId = await viewer(req);
    const repo = await repoOf(req.params.o, req.params.r);
    return db.tx(async (run) => {
      const issueId = await issueOf(run, repo.id, req.params.n);
      const now = new Date();
      const labels = req.body.labels;
      await run(
        `INSERT INTO "IssueLabel" ("issueId", "labelId") VALUES ${labels.map(() => '(?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
        labels.flatMap((l) => [issueId, l]),
      );
      await run(
        `INSERT INTO "Comment" ("type", "posterId", "issueId", "labelId", "content", "createdAt", "updatedAt") VALUES ${labels.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        labels.flatMap((l) => ['LABEL', userId, issueId, l, '1', now, now]),
      );
      await refreshLabels(run, labels);
      await run('UPDATE "Issue" SET "updatedAt" = ? WHERE "id" = ?', [now, issueId]);
      return { id: issueId };
    });
  });
  app.patch<{ Params: Params; Body: { title: string; body: string } }>('/api/v1/repos/:o/:r/issues/:n', async (req, reply) => {
    const userId = await viewer(req);
    const repo = await repoOf(req.params.o, req.params.r);
    const id = await db.tx(async (run) => {
      const [old] = await run('SELECT "id", "title" FROM "Issue" WHERE "repoId" = ? AND "index" = ?', [repo.id, Number(req.params.n)]);
      const now = new Date();
      await run('UPDATE "Issue" SET "title" = ?, "content" = ?, "contentVersion" = "contentVersion" + 1, "updatedAt" = ? WHERE "id" = ?', [
        req.body.title,
        req.body.body,
        now,
        old!.id as number,
      ]);
      await run(
        `INSERT INTO "Comment" ("type", "posterId", "issueId", "oldTitle", "newTitle", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ['CHANGE_TITLE', userId, old!.id as number, old!.title as string, req.body.title, now, now],
      );
      return Number(old!.id);
    });
    return reply.code(201).send({ id });
  });
  // Pull request: git merge-base and diff of base...head, the issue and pull rows, refs/pull/N/head.
  app.post<{ Params: Params; Body: { title: string; head: string; base: string } }>('/api/v1/repos/:o/:r/pulls', async (req, reply) => {
    const userId = await viewer(req);
    const repo = await repoOf(req.params.o, req.params.r);
    const [headSha, baseSha] = (await git(repo.dir, ['rev-parse', `refs/heads/${req.body.head}`, `refs/heads/${req.body.base}`])).split(
      '\n',
    );
    const mergeBase = await git(repo.dir, ['merge-base', baseSha!, headSha!]);
    const stat = await git(repo.dir, ['diff', '--shortstat', `${mergeBase}..${headSha}`]);
    const num = (re: RegExp) => Number(re.exec(stat)?.[1] ?? 0);
    const { id, index } = await db.tx(async (run) => {
      const issue = await newIssue(run, repo.id, userId, req.body, [], true);
      await run(
        `INSERT INTO "PullRequest" ("status", "issueId", "index", "headRepoId", "baseRepoId", "headBranch", "baseBranch", "mergeBase", "commitsAhead", "additions", "deletions", "changedFiles", "statsHeadSha", "statsBaseSha") VALUES ('MERGEABLE', ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
        [
          issue.id,
          issue.index,
          repo.id,
          repo.id,
          req.body.head,
          req.body.base,
          mergeBase,
          num(/(\d+) insertion/),
          num(/(\d+) deletion/),
          num(/(\d+) files? changed/),
          headSha!,
          baseSha!,
        ],
      );
      return issue;
    });
    await git(repo.dir, ['update-ref', `refs/pull/${index}/head`, headSha!]);
    return reply.code(201).send({ id, number: index });
  });
  // Merge (merge or squash): merge-tree, commit-tree, update-ref of the base (one writer per repository), the rows.
  const locks = new Map<number, Promise<unknown>>();
  app.post<{ Params: Params; Body: { Do: 'merge' | 'squash' } }>('/api/v1/repos/:o/:r/pulls/:n/merge', async (req) => {
    const userId = await viewer(req);
    const repo = await repoOf(req.params.o, req.params.r);
    const [pull] = await db.query(
      'SELECT p."id", p."issueId", p."headBranch", p."baseBranch", i."title" FROM "PullRequest" p JOIN "Issue" i ON i."id" = p."issueId" WHERE p."baseRepoId" = ? AND p."index" = ?',
      [repo.id, Number(req.params.n)],
    );
    const section = (locks.get(repo.id) ?? Promise.resolve()).then(async () => {
      const base = `refs/heads/${String(pull!.baseBranch)}`;
      const [headSha, baseSha] = (await git(repo.dir, ['rev-parse', `refs/heads/${String(pull!.headBranch)}`, base])).split('\n');
      const tree = (await git(repo.dir, ['merge-tree', '--write-tree', baseSha!, headSha!])).split('\n')[0]!;
      const parents = req.body.Do === 'squash' ? ['-p', baseSha!] : ['-p', baseSha!, '-p', headSha!];
      const ident = {
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'bench@example.com',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'bench@example.com',
      };
      const message = `Merge pull request '${String(pull!.title)}' (#${req.params.n})`;
      const sha = await git(repo.dir, ['commit-tree', tree, ...parents, '-m', message], ident);
      await git(repo.dir, ['update-ref', base, sha, baseSha!]);
      return { sha, message, ref: base, baseSha: baseSha! };
    });
    locks.set(
      repo.id,
      section.catch(() => undefined),
    );
    const merged = await section;
    await db.tx(async (run) => {
      const now = new Date();
      await run('UPDATE "PullRequest" SET "hasMerged" = ?, "mergedCommitId" = ?, "mergerId" = ?, "mergedAt" = ? WHERE "id" = ?', [
        true,
        merged.sha,
        userId,
        now,
        pull!.id as number,
      ]);
      await run('UPDATE "Issue" SET "isClosed" = ?, "closedAt" = ?, "updatedAt" = ? WHERE "id" = ?', [
        true,
        now,
        now,
        pull!.issueId as number,
      ]);
      await run('UPDATE "Repository" SET "numClosedPulls" = "numClosedPulls" + 1 WHERE "id" = ?', [repo.id]);
      const issueId = pull!.issueId as number;
      // The merge comment, and the merge commit's reference to the pull request ("(#N)" in its message).
      await run(
        `INSERT INTO "Comment" ("type", "posterId", "issueId", "commitSha", "content", "createdAt", "updatedAt") VALUES ('MERGE_PULL', ?, ?, ?, '', ?, ?), ('COMMIT_REF', ?, ?, ?, ?, ?, ?)`,
        [userId, issueId, merged.sha, now, now, userId, issueId, merged.sha, merged.message, now, now],
      );
      await feed(run, repo.id, userId, 'MERGE_PULL_REQUEST', `${req.params.n}|${String(pull!.title)}`);
      const head = { Sha1: merged.sha, Message: merged.message, AuthorName: 'bench', AuthorEmail: 'bench@example.com' };
      await feed(run, repo.id, userId, 'COMMIT_REPO', JSON.stringify({ Commits: [head], HeadCommit: head, Len: 1 }), {
        refName: merged.ref,
      });
      const update = { ref: merged.ref, oldSha: merged.baseSha, newSha: merged.sha };
      await jobs(run, [
        ['repo.push', { repoId: repo.id, pusherId: userId, updates: [update], applied: [update] }, 5],
        fanOut('pull.merged', issueId, userId, null),
        ['issue.xref', { source: 'merge', issueId, actorId: userId, commitId: merged.sha }, 5],
        ['repo.upkeep', { repoId: repo.id }, 3],
        [
          'pull.refreshBase',
          { repoId: repo.id, branch: String(pull!.baseBranch), oldSha: merged.baseSha, newSha: merged.sha, pusherId: userId },
          5,
        ],
        ['repo.licenses', { repoId: repo.id }, 3],
      ]);
    });
    return {};
  });
  return app;
}
