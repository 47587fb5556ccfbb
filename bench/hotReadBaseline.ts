// The hand-written baseline of bench/hotReads.ts (issue #17): a Fastify app answering the four hot REST reads
// from SQL it writes itself, with statements prepared once (better-sqlite3 on SQLite; `pg` named statements on
// PostgreSQL; both through src/db/readPath.ts, which is only the driver plus Prisma's column types). It builds
// the same row objects Forgegraph's services hand to the REST converters and reuses those pure converters, so
// the bytes are the same and the difference measured is the cost of loading (Prisma, the services' generic
// read policy) and the framework around it. It knows the bench's data: public repositories, owned by the
// token's user or read anonymously, repository labels only, no mirrors, forks, transfers or review requests.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Models } from '../src/db/client.ts';
import { createReadPath, type Param } from '../src/db/readPath.ts';
import { rowsOf, type ModelName, type ModelRow } from '../src/db/rowShape.ts';
import type { DbProvider } from '../src/db/migrate/engine.ts';
import { hashToken } from '../src/auth/token.ts';
import { readRefs } from '../src/git/readRefs.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { computeRepoPermission, type RepoPermission } from '../src/permissions/repoPermission.ts';
import { toApiIssue } from '../src/rest/convert/issue.ts';
import { toApiPullRequest } from '../src/rest/convert/pull.ts';
import { toApiRepository } from '../src/rest/convert/repo.ts';
import type { ConvertOptions } from '../src/rest/convert/user.ts';
import type { IssueView } from '../src/services/issue/issue.ts';
import type { PullView } from '../src/services/pull/types.ts';
import type { ApiRepoRow } from '../src/services/repo/repoRows.ts';

type Row = Record<string, unknown>;
type Link = { linkId: number };

export interface Baseline {
  app: FastifyInstance;
  /** Statements run since the last reset. */
  statements: { n: number };
  close(): Promise<void>;
}

export function startBaseline(provider: DbProvider, url: string, opts: ConvertOptions, repositoriesDir: string): Baseline {
  const statements = { n: 0 };
  const reads = createReadPath(provider, url, () => void statements.n++);
  const rows = async <M extends ModelName, R = ModelRow<M>>(model: M, sql: string, params: Param[]): Promise<R[]> =>
    rowsOf(model, await reads.all(sql, params)) as R[];

  async function viewerOf(req: FastifyRequest): Promise<Models.User | null> {
    const token = /^token (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return null;
    const sql = 'SELECT * FROM "User" WHERE "id" = (SELECT "userId" FROM "AccessToken" WHERE "tokenHash" = ?)';
    return (await rows('User', sql, [hashToken(token)]))[0] ?? null;
  }

  /** The repository with its owner's facts and units; the permission from them (owner or public reader). */
  async function repoOf(owner: string, name: string, viewer: Models.User | null) {
    const sql = `SELECT r.*, o."type" AS "ownerType", o."visibility" AS "ownerVisibility" FROM "Repository" r
      JOIN "User" o ON o."id" = r."ownerId" WHERE r."lowerName" = ? AND o."lowerName" = ?`;
    const [row] = await rows<'Repository', Models.Repository & { ownerType: Models.UserType; ownerVisibility: Models.Visibility }>(
      'Repository',
      sql,
      [name.toLowerCase(), owner.toLowerCase()],
    );
    if (!row) return null;
    const { ownerType, ownerVisibility, ...repo } = row;
    const units = await rows<'RepoUnit', Pick<Models.RepoUnit, 'type' | 'config'>>(
      'RepoUnit',
      'SELECT "type", "config" FROM "RepoUnit" WHERE "repoId" = ?',
      [repo.id],
    );
    const facts = {
      id: repo.id,
      ownerId: repo.ownerId,
      isPrivate: repo.isPrivate,
      owner: { id: repo.ownerId, type: ownerType, visibility: ownerVisibility },
      units: units.map((u) => u.type),
    };
    const perm = computeRepoPermission(facts, { viewer, isOrgMember: false, teams: [], collaboration: null, blocked: false });
    return { repo, units, perm };
  }

  async function issueViews(issues: Models.Issue[], repo: Models.Repository): Promise<IssueView[]> {
    const ids = issues.map((i) => i.id);
    const posterIds = [...new Set(issues.flatMap((i) => (i.posterId === null ? [] : [i.posterId])))];
    const [labels, assignees, posters, projects, attachments] = await Promise.all([
      rows<'Label', Models.Label & Link>(
        'Label',
        'SELECT l.*, il."issueId" AS "linkId" FROM "IssueLabel" il JOIN "Label" l ON l."id" = il."labelId" WHERE il."issueId" IN (?)',
        [ids],
      ),
      rows<'User', Models.User & Link>(
        'User',
        'SELECT u.*, a."issueId" AS "linkId" FROM "IssueAssignee" a JOIN "User" u ON u."id" = a."assigneeId" WHERE a."issueId" IN (?) ORDER BY a."id"',
        [ids],
      ),
      rows('User', 'SELECT * FROM "User" WHERE "id" IN (?)', [posterIds]),
      rows<'Project', Models.Project & Link>(
        'Project',
        'SELECT p.*, pi."issueId" AS "linkId" FROM "ProjectIssue" pi JOIN "Project" p ON p."id" = pi."projectId" WHERE pi."issueId" IN (?) ORDER BY pi."projectId"',
        [ids],
      ),
      rows('Attachment', 'SELECT * FROM "Attachment" WHERE "issueId" IN (?) AND "commentId" IS NULL ORDER BY "id"', [ids]),
    ]);
    const milestoneIds = [...new Set(issues.flatMap((i) => (i.milestoneId === null ? [] : [i.milestoneId])))];
    const pullIds = issues.filter((i) => i.isPull).map((i) => i.id);
    const [milestones, pulls] = await Promise.all([
      milestoneIds.length ? rows('Milestone', 'SELECT * FROM "Milestone" WHERE "id" IN (?)', [milestoneIds]) : [],
      pullIds.length ? rows('PullRequest', 'SELECT * FROM "PullRequest" WHERE "issueId" IN (?)', [pullIds]) : [],
    ]);
    const strip = <T extends Link>({ linkId: _, ...rest }: T) => rest;
    const repoName = { ownerName: repo.ownerName, name: repo.name };
    return issues.map((issue) => ({
      issue,
      repo: { id: repo.id, name: repo.name, ownerName: repo.ownerName },
      poster: posters.find((u) => u.id === issue.posterId) ?? null,
      labels: labels
        .filter((l) => l.linkId === issue.id)
        .map((l) => ({ ...strip(l), org: null, repo: repoName }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
      milestone: milestones.find((m) => m.id === issue.milestoneId) ?? null,
      assignees: assignees.filter((a) => a.linkId === issue.id).map(strip),
      pull: pulls.find((p) => p.issueId === issue.id) ?? null,
      projects: projects.filter((p) => p.linkId === issue.id).map(strip),
      attachments: attachments.filter((a) => a.issueId === issue.id),
    }));
  }

  async function apiRepo(repo: Models.Repository, units: Pick<Models.RepoUnit, 'type' | 'config'>[]): Promise<ApiRepoRow> {
    // One statement for the language, the licenses and the counts, as the server does (src/services/repo/repoRows.ts).
    const facts = `SELECT
      (SELECT "language" FROM "LanguageStat" WHERE "repoId" = ? AND "isPrimary" = ? ORDER BY "id" LIMIT 1) AS "language",
      (SELECT string_agg("license", ? ORDER BY "license") FROM "RepoLicense" WHERE "repoId" = ?) AS "licenses",
      (SELECT COUNT(*) FROM "Release" WHERE "repoId" = ? AND "isDraft" = ? AND "isTag" = ?) AS "numReleases",
      (SELECT COUNT(*) FROM "Branch" WHERE "repoId" = ? AND "isDeleted" = ?) AS "numBranches"`;
    const [owner, [f]] = await Promise.all([
      rows('User', 'SELECT * FROM "User" WHERE "id" = ?', [repo.ownerId]),
      reads.all(facts, [repo.id, true, '\n', repo.id, repo.id, false, false, repo.id, false]) as Promise<Row[]>,
    ]);
    return {
      ...repo,
      owner: owner[0]!,
      units,
      languageStats: f!.language ? [{ language: String(f!.language) }] : [],
      licenses: f!.licenses
        ? String(f!.licenses)
            .split('\n')
            .map((license) => ({ license }))
        : [],
      _count: { releases: Number(f!.numReleases), branches: Number(f!.numBranches) },
      mirror: null,
      transfer: null,
      forkOf: null,
    };
  }

  const app = Fastify();
  // Gitea's JSON encoder, as Forgegraph's REST plugin writes it: <, >, & escaped, a trailing newline.
  app.setReplySerializer((payload) => `${JSON.stringify(payload).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`);
  const notFound = { message: 'not found', url: '' };
  app.get<{ Params: { o: string; r: string } }>('/api/v1/repos/:o/:r', async (req, reply) => {
    const viewer = await viewerOf(req);
    const found = await repoOf(req.params.o, req.params.r, viewer);
    if (!found) return reply.code(404).send(notFound);
    const repo = await apiRepo(found.repo, found.units);
    return toApiRepository(repo, repo.owner, found.perm, opts);
  });
  app.get<{ Params: { o: string; r: string; n: string } }>('/api/v1/repos/:o/:r/issues/:n', async (req, reply) => {
    const viewer = await viewerOf(req);
    const found = await repoOf(req.params.o, req.params.r, viewer);
    const issue =
      found && (await rows('Issue', 'SELECT * FROM "Issue" WHERE "repoId" = ? AND "index" = ?', [found.repo.id, Number(req.params.n)]))[0];
    if (!found || !issue) return reply.code(404).send(notFound);
    return toApiIssue((await issueViews([issue], found.repo))[0]!, viewer, opts);
  });
  app.get<{ Params: { o: string; r: string }; Querystring: { limit?: string } }>('/api/v1/repos/:o/:r/issues', async (req, reply) => {
    const viewer = await viewerOf(req);
    const found = await repoOf(req.params.o, req.params.r, viewer);
    if (!found) return reply.code(404).send(notFound);
    const sql = 'SELECT * FROM "Issue" WHERE "repoId" = ? AND "isClosed" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ?';
    const [issues, [count]] = await Promise.all([
      rows('Issue', sql, [found.repo.id, false, Math.min(Number(req.query.limit ?? 30), 50)]),
      reads.all('SELECT COUNT(*) AS "n" FROM "Issue" WHERE "repoId" = ? AND "isClosed" = ?', [found.repo.id, false]) as Promise<Row[]>,
    ]);
    reply.header('x-total-count', String(count!.n));
    return (await issueViews(issues, found.repo)).map((v) => toApiIssue(v, viewer, opts));
  });
  app.get<{ Params: { o: string; r: string; n: string } }>('/api/v1/repos/:o/:r/pulls/:n', async (req, reply) => {
    const viewer = await viewerOf(req);
    const found = await repoOf(req.params.o, req.params.r, viewer);
    const sql = 'SELECT * FROM "Issue" WHERE "repoId" = ? AND "index" = ? AND "isPull" = ?';
    const issue = found && (await rows('Issue', sql, [found.repo.id, Number(req.params.n), true]))[0];
    if (!found || !issue) return reply.code(404).send(notFound);
    const [[view], repo, [codeComments]] = await Promise.all([
      issueViews([issue], found.repo),
      apiRepo(found.repo, found.units),
      reads.all('SELECT COUNT(*) AS "n" FROM "Comment" WHERE "issueId" = ? AND "type" = ?', [issue.id, 'CODE']) as Promise<Row[]>,
    ]);
    const pull = view!.pull!;
    const merger = pull.mergerId === null ? [] : await rows('User', 'SELECT * FROM "User" WHERE "id" = ?', [pull.mergerId]);
    const head = `refs/heads/${pull.headBranch}`;
    const refs = await readRefs(repoPath(repositoriesDir, repo.ownerName, repo.name), [
      `refs/heads/${pull.baseBranch}`,
      head,
      `refs/pull/${pull.index}/head`,
    ]);
    const withPerm: { repo: ApiRepoRow; perm: RepoPermission } = { repo, perm: found.perm };
    const pullRefSha = refs.get(`refs/pull/${pull.index}/head`) ?? '';
    const pv: PullView = {
      ...view!,
      pull,
      baseRepo: withPerm,
      headRepo: withPerm,
      merger: merger[0] ?? null,
      requestedReviewers: [],
      requestedTeams: [],
      reviewComments: Number(codeComments!.n),
      headSha: refs.get(head) ?? pullRefSha,
      headBranchExists: refs.has(head),
      pullRefSha,
      baseSha: refs.get(`refs/heads/${pull.baseBranch}`) ?? '',
    };
    return toApiPullRequest(pv, viewer, opts);
  });
  return { app, statements, close: async () => (await app.close(), await reads.close()) };
}
