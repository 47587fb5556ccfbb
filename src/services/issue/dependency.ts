import type { DbLike, DbTx, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { AlreadyExistsError, ConflictError, InvalidArgumentError, NotFoundError, PreconditionFailedError } from '../../errors.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { unitConfig } from '../../permissions/units.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { findRepoByName, requireRepoAccess, requireRepoWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { canWriteIssue, findIssueByIndex, loadIssueView, type IssueView } from './issue.ts';
import { issueReadWhere } from './visibility.ts';
import { insertRows } from '../../db/insertRows.ts';

/** Gitea `[service] ALLOW_CROSS_REPOSITORY_DEPENDENCIES` (default true): the other issue may live in another repository. */
export const ALLOW_CROSS_REPOSITORY_DEPENDENCIES = true;
/** Gitea `[service] DEFAULT_ENABLE_DEPENDENCIES` (default true): what a repository without an issues unit answers. */
export const DEFAULT_ENABLE_DEPENDENCIES = true;

/** Gitea `IssueMeta` {owner, repo, index}: the issue named in the body of /blocks and /dependencies. */
export interface IssueMetaInput {
  owner: string;
  repo: string;
  index: number;
}

/**
 * Which route: `blocks` = the path issue blocks the body issue (POST …/{index}/blocks), `dependencies` = the path
 * issue depends on the body issue (POST …/{index}/dependencies). Either way the row is "target depends on dependency".
 */
export type DependencyRoute = 'blocks' | 'dependencies';

/** Gitea Repository.IsDependenciesEnabled: the issues unit's `enableDependencies`; without the unit, the site default. */
export async function isDependenciesEnabled(db: DbLike, repoId: number): Promise<boolean> {
  const unit = await db.repoUnit.findUnique({ where: { repoId_type: { repoId, type: 'ISSUES' } }, select: { config: true } });
  if (!unit) return DEFAULT_ENABLE_DEPENDENCIES;
  return unitConfig(unit.config).enableDependencies === true;
}

/**
 * Closing needs every blocker closed, when the issue's repository has dependencies enabled (Gitea
 * SetIssueAsClosed → IssueNoDependenciesLeft). Blockers count whatever their repository or visibility.
 * @throws PreconditionFailedError
 */
export async function requireNoOpenDependencies(db: DbLike, issue: Pick<Models.Issue, 'id' | 'repoId'>): Promise<void> {
  if (!(await isDependenciesEnabled(db, issue.repoId))) return;
  const open = await db.issueDependency.findFirst({ where: { issueId: issue.id, dependency: { isClosed: false } }, select: { id: true } });
  if (open) {
    throw new PreconditionFailedError('cannot close this issue or pull request because it still has open dependencies', {
      issueId: issue.id,
    });
  }
}

/** The two ends of a dependency row, each with the viewer's access to its repository. */
interface Pair {
  /** The issue in the URL (what the route answers with). */
  pathIssue: Models.Issue;
  /** The blocked issue (IssueDependency.issueId). */
  target: Models.Issue;
  /** The blocking issue (IssueDependency.dependencyId). */
  dependency: Models.Issue;
}

/**
 * The repository named in an IssueMeta. Gitea compares owner and name case-sensitively with the URL's repository
 * (omitted ones therefore name another, missing repository); any other repository must be visible (404, never
 * revealing a private one).
 * @throws InvalidArgumentError, NotFoundError
 */
async function resolveMetaRepo(cx: ServiceContext, path: RepoAccess, meta: IssueMetaInput): Promise<RepoAccess> {
  if (meta.owner === path.repo.ownerName && meta.repo === path.repo.name) return path;
  if (!ALLOW_CROSS_REPOSITORY_DEPENDENCIES) throw new InvalidArgumentError('CrossRepositoryDependencies not enabled');
  const repo = await findRepoByName(cx.db, meta.owner, meta.repo);
  if (!repo) throw new NotFoundError('repository does not exist', { owner: meta.owner, name: meta.repo });
  return repo.id === path.repo.id ? path : requireRepoAccess(cx, repo);
}

/**
 * Gitea's checks of CreateIssueDependency/CreateIssueBlocking (and their DELETE twins), with the dependency's
 * readability checked against its own repository: issues on both ends must exist and be readable (404); the
 * target's repository must not be archived and must have dependencies enabled, and the viewer must be able to
 * write the target's issues or pulls (404 otherwise, as Gitea). Only /dependencies has mustNotBeArchived on the
 * URL's repository (423); on /blocks the URL issue is only read.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError (token scope), InvalidArgumentError
 */
async function resolvePair(cx: ServiceContext, ref: RepoRef, index: number, meta: IssueMetaInput, route: DependencyRoute): Promise<Pair> {
  const path = await resolveIssueRepo(cx, ref, route === 'dependencies' ? 'write' : 'read');
  requireRepoWrite(cx, path, 'write:issue');
  requireViewer(cx);
  const pathIssue = await findIssueByIndex(cx, path, index);
  const other = await resolveMetaRepo(cx, path, meta);
  const bodyIssue = await findIssueByIndex(cx, other, meta.index);
  const [targetAccess, target, dependency] = route === 'blocks' ? [other, bodyIssue, pathIssue] : [path, pathIssue, bodyIssue];
  if (targetAccess.repo.isArchived || !(await isDependenciesEnabled(cx.db, targetAccess.repo.id))) {
    throw new NotFoundError('not found', { repoId: targetAccess.repo.id });
  }
  if (!canWriteIssue(targetAccess, target)) throw new NotFoundError('not found', { issueId: target.id });
  return { pathIssue, target, dependency };
}

/**
 * Whether `from` already depends on `to`, directly or through other issues (a walk along dependency rows, one
 * query per level). Adding "to depends on from" would then close a cycle.
 */
async function dependsOn(tx: DbTx, from: number, to: number): Promise<boolean> {
  const seen = new Set([from]);
  let frontier = [from];
  while (frontier.length) {
    const rows = await tx.issueDependency.findMany({ where: { issueId: { in: frontier } }, select: { dependencyId: true } });
    const next: number[] = [];
    for (const { dependencyId } of rows) {
      if (dependencyId === to) return true;
      if (!seen.has(dependencyId)) {
        seen.add(dependencyId);
        next.push(dependencyId);
      }
    }
    frontier = next;
  }
  return false;
}

/**
 * A serializable transaction whose events are published after commit. The cycle check reads rows that
 * concurrent additions write; serializability makes one of two racing additions that together would close a
 * cycle fail (and withRetry run it again, when it sees the other's row).
 */
async function serializableTx<T>(cx: ServiceContext, fn: (tx: DbTx, emit: (e: DomainEvent) => void) => Promise<T>): Promise<T> {
  const events: DomainEvent[] = [];
  const result = await cx.db.$transaction((tx) => fn(tx, (e) => events.push(e)), {
    isolationLevel: 'Serializable',
    timeout: 15_000,
    maxWait: 15_000,
  });
  cx.notifier.publish(events);
  return result;
}

/** ADD_DEPENDENCY / REMOVE_DEPENDENCY on both issues, each naming the other (Gitea createIssueDependencyComment). */
function dependencyComments(
  type: 'ADD_DEPENDENCY' | 'REMOVE_DEPENDENCY',
  posterId: number,
  p: Pair,
): Models.Prisma.CommentCreateManyInput[] {
  return [
    { type, posterId, issueId: p.target.id, dependentIssueId: p.dependency.id },
    { type, posterId, issueId: p.dependency.id, dependentIssueId: p.target.id },
  ];
}

const pairText = (p: Pair): string => `[issue id: ${p.target.id}, dependency id: ${p.dependency.id}]`;

/** Records "target depends on dependency" with its timeline comments. @throws AlreadyExistsError, ConflictError */
async function insertDependency(cx: ServiceContext, p: Pair): Promise<void> {
  const viewer = requireViewer(cx);
  const data = { issueId: p.target.id, dependencyId: p.dependency.id };
  await withRetry(() =>
    serializableTx(cx, async (tx, emit) => {
      const exists = await tx.issueDependency.findUnique({ where: { issueId_dependencyId: data }, select: { id: true } });
      if (exists) throw new AlreadyExistsError(`issue dependency does already exist ${pairText(p)}`, data);
      if (p.target.id === p.dependency.id || (await dependsOn(tx, p.dependency.id, p.target.id))) {
        throw new ConflictError(`circular dependencies exists (the issues would block each other) ${pairText(p)}`, data);
      }
      try {
        await tx.issueDependency.create({ data: { ...data, userId: viewer.id } });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AlreadyExistsError(`issue dependency does already exist ${pairText(p)}`, data);
        throw err;
      }
      await insertRows(tx, 'Comment', dependencyComments('ADD_DEPENDENCY', viewer.id, p));
      emit({
        type: 'issue.dependencyAdded',
        issueId: p.target.id,
        dependencyId: p.dependency.id,
        repoId: p.target.repoId,
        actorId: viewer.id,
      });
    }),
  );
}

/** Deletes "target depends on dependency" with its timeline comments. @throws NotFoundError */
async function deleteDependency(cx: ServiceContext, p: Pair): Promise<void> {
  const viewer = requireViewer(cx);
  await withRetry(() =>
    serializableTx(cx, async (tx, emit) => {
      const { count } = await tx.issueDependency.deleteMany({ where: { issueId: p.target.id, dependencyId: p.dependency.id } });
      if (count === 0)
        throw new NotFoundError(`issue dependency does not exist ${pairText(p)}`, { issueId: p.target.id, dependencyId: p.dependency.id });
      await insertRows(tx, 'Comment', dependencyComments('REMOVE_DEPENDENCY', viewer.id, p));
      emit({
        type: 'issue.dependencyRemoved',
        issueId: p.target.id,
        dependencyId: p.dependency.id,
        repoId: p.target.repoId,
        actorId: viewer.id,
      });
    }),
  );
}

/**
 * POST …/issues/{index}/blocks (`route` = blocks: the URL issue blocks the body issue) or …/dependencies
 * (the URL issue depends on the body issue). Refuses a duplicate (AlreadyExists) and any cycle, however long
 * (Conflict). Answers the URL issue, as Gitea.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError, AlreadyExistsError, ConflictError
 */
export async function addIssueDependency(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  meta: IssueMetaInput,
  route: DependencyRoute,
): Promise<IssueView> {
  const pair = await resolvePair(cx, ref, index, meta, route);
  await insertDependency(cx, pair);
  return loadIssueView(cx.db, pair.pathIssue);
}

/**
 * DELETE …/issues/{index}/blocks or …/dependencies: the same checks as adding; 404 when there is no such
 * dependency. Answers the URL issue.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError
 */
export async function removeIssueDependency(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  meta: IssueMetaInput,
  route: DependencyRoute,
): Promise<IssueView> {
  const pair = await resolvePair(cx, ref, index, meta, route);
  await deleteDependency(cx, pair);
  return loadIssueView(cx.db, pair.pathIssue);
}

/** Issue ids (GraphQL): `issueId` is blocked by `blockingIssueId`. */
export interface BlockedByInput {
  issueId: number;
  blockingIssueId: number;
}

/** Both issues by id, as a path reference and an IssueMeta; unknown and unreadable ids alike are NotFound. */
async function locateBlockedBy(cx: ServiceContext, input: BlockedByInput): Promise<{ ref: RepoRef; index: number; meta: IssueMetaInput }> {
  const select = { id: true, index: true, repo: { select: { ownerName: true, name: true } } } as const;
  const rows = await cx.db.issue.findMany({
    where: { AND: [{ id: { in: [input.issueId, input.blockingIssueId] } }, issueReadWhere(cx)] },
    select,
  });
  const issue = rows.find((r) => r.id === input.issueId);
  const blocking = rows.find((r) => r.id === input.blockingIssueId);
  if (!issue || !blocking) throw new NotFoundError('issue does not exist', { issueId: issue ? input.blockingIssueId : input.issueId });
  return {
    ref: { owner: issue.repo.ownerName, repo: issue.repo.name },
    index: issue.index,
    meta: { owner: blocking.repo.ownerName, repo: blocking.repo.name, index: blocking.index },
  };
}

/**
 * GitHub's addBlockedBy: the same rules as POST …/{issue}/dependencies with the blocking issue in the body.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError, AlreadyExistsError, ConflictError
 */
export async function addBlockedBy(
  cx: ServiceContext,
  input: BlockedByInput,
): Promise<{ issue: Models.Issue; blockingIssue: Models.Issue }> {
  const { ref, index, meta } = await locateBlockedBy(cx, input);
  const pair = await resolvePair(cx, ref, index, meta, 'dependencies');
  await insertDependency(cx, pair);
  return { issue: pair.target, blockingIssue: pair.dependency };
}

/**
 * GitHub's removeBlockedBy: the same rules as DELETE …/{issue}/dependencies.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError
 */
export async function removeBlockedBy(
  cx: ServiceContext,
  input: BlockedByInput,
): Promise<{ issue: Models.Issue; blockingIssue: Models.Issue }> {
  const { ref, index, meta } = await locateBlockedBy(cx, input);
  const pair = await resolvePair(cx, ref, index, meta, 'dependencies');
  await deleteDependency(cx, pair);
  return { issue: pair.target, blockingIssue: pair.dependency };
}
