import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { repoPermissionLoader } from '../../loaders/permissionLoaders.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { hasEveryUnit } from '../../permissions/teamUnits.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { findUserByName } from '../user/user.ts';
import { findPullByIndex } from './pull.ts';
import {
  isOfficialReviewer,
  latestReviewOf,
  loadReviewViews,
  resolveReviewRepo,
  restoreLatestOfficialReview,
  type ReviewView,
} from './reviewView.ts';
import type { PullRows } from './types.ts';

/** POST/DELETE /repos/{o}/{r}/pulls/{index}/requested_reviewers (Gitea PullReviewRequestOptions). */
export interface ReviewRequestInput {
  /** User names, or e-mail addresses (any entry containing `@`). */
  reviewers?: readonly string[];
  /** Team names of the repository's organization (ignored for a user's repository). */
  teamReviewers?: readonly string[];
  /** Users by id (GraphQL), after the names. */
  reviewerIds?: readonly number[];
  /** Teams by id (GraphQL), after the names. */
  teamIds?: readonly number[];
}

/** A pull request review requests are made on: the repository with the viewer's access, and the pull request. */
export interface ReviewRequestTarget extends PullRows {
  access: RepoAccess;
}

/** Gitea ErrNotValidReviewRequest: `<reason> [user_id: <doer>, repo_id: <repo>]`, answered 422. */
function invalid(reason: string, doer: Models.User, repo: Models.Repository): ValidationError {
  return new ValidationError(`${reason} [user_id: ${doer.id}, repo_id: ${repo.id}]`, { reason });
}

/** A user by name, or by an activated e-mail address when the name contains `@` (Gitea GetUserByEmail). */
async function findReviewer(cx: ServiceContext, name: string): Promise<Models.User | null> {
  if (!name.includes('@')) return findUserByName(cx.db, name);
  const email = await cx.db.emailAddress.findFirst({
    where: { lowerEmail: name.toLowerCase(), isActivated: true },
    select: { user: true },
  });
  return email?.user ?? null;
}

/**
 * Gitea parseReviewersByNames: every name is resolved before anything changes; unknown users and teams are 404.
 * Team names count only for organization repositories.
 * @throws NotFoundError
 */
export async function resolveReviewers(
  cx: ServiceContext,
  repo: Models.Repository,
  input: ReviewRequestInput,
): Promise<{ users: Models.User[]; teams: Models.Team[] }> {
  const users: Models.User[] = [];
  for (const name of input.reviewers ?? []) {
    const user = await findReviewer(cx, name);
    if (!user) throw new NotFoundError(`user doesn't exist: ${name}`, { name });
    users.push(user);
  }
  for (const id of input.reviewerIds ?? []) {
    const user = id > 0 && id <= 2_147_483_647 ? await cx.db.user.findUnique({ where: { id } }) : null;
    if (!user) throw new NotFoundError(`user doesn't exist: [id: ${id}]`, { id });
    users.push(user);
  }
  const teams: Models.Team[] = [];
  const owner = await cx.db.user.findUniqueOrThrow({ where: { id: repo.ownerId }, select: { type: true } });
  if (owner.type === 'ORGANIZATION') {
    for (const name of input.teamReviewers ?? []) {
      const team = await cx.db.team.findUnique({ where: { orgId_lowerName: { orgId: repo.ownerId, lowerName: name.toLowerCase() } } });
      if (!team) throw new NotFoundError(`team doesn't exist: ${name}`, { name });
      teams.push(team);
    }
    for (const id of input.teamIds ?? []) {
      const team = id > 0 && id <= 2_147_483_647 ? await cx.db.team.findFirst({ where: { id, orgId: repo.ownerId } }) : null;
      if (!team) throw new NotFoundError(`team doesn't exist: [id: ${id}]`, { id });
      teams.push(team);
    }
  }
  return { users, teams };
}

/**
 * Gitea CanDoerChangeReviewRequests: nobody on an archived repository; otherwise the pull request's poster, the
 * repository's owner, its collaborators, and members of the organization's teams that can read pull requests
 * of the repository.
 */
export async function canChangeReviewRequests(
  cx: ServiceContext,
  doer: Models.User,
  repo: Models.Repository,
  posterId: number | null,
): Promise<boolean> {
  if (repo.isArchived) return false;
  if (doer.id === posterId || doer.id === repo.ownerId) return true;
  const [collaboration, teams] = await Promise.all([
    cx.db.collaboration.findFirst({ where: { repoId: repo.id, userId: doer.id }, select: { id: true } }),
    cx.db.team.findMany({
      where: {
        orgId: repo.ownerId,
        members: { some: { userId: doer.id } },
        OR: [{ includesAllRepositories: true }, { repos: { some: { repoId: repo.id } } }],
      },
      select: { authorize: true, units: { where: { type: 'PULL_REQUESTS' }, select: { accessMode: true } } },
    }),
  ]);
  if (collaboration) return true;
  // A team reads pull requests through its pull requests unit (admin and owner teams have every unit).
  return teams.some((t) => hasEveryUnit(t.authorize) || t.units.some((u) => atLeast(u.accessMode, 'READ')));
}

/** Whether the team can read the repository (Gitea HasTeamRepo; all of the organization's with includes_all_repositories). */
async function teamHasRepo(db: DbLike, team: Models.Team, repoId: number): Promise<boolean> {
  if (team.includesAllRepositories) return true;
  return (await db.teamRepo.findFirst({ where: { teamId: team.id, repoId }, select: { id: true } })) !== null;
}

/**
 * Gitea isValidReviewRequest + AddReviewRequest / RemoveReviewRequest for one user, in its own transaction.
 * Returns the new request (null when nothing was added: already requested, or a removal).
 */
async function changeUserRequest(
  cx: ServiceContext,
  target: ReviewRequestTarget,
  doer: Models.User,
  reviewer: Models.User,
  add: boolean,
  canChange: boolean,
): Promise<Models.Review | null> {
  const { access, issue, pull } = target;
  const repo = access.repo;
  if (reviewer.type === 'ORGANIZATION') throw invalid("Organization can't be added as reviewer", doer, repo);
  const [perm, last] = await Promise.all([
    repoPermissionLoader(cx.db, reviewer).load(repo.id),
    latestReviewOf(cx.db, issue.id, reviewer.id),
  ]);
  if (add) {
    if (!canRead(perm, 'PULL_REQUESTS')) throw invalid("Reviewer can't read", doer, repo);
    if (reviewer.id === issue.posterId && issue.originalAuthorId === 0) throw invalid("poster of pr can't be reviewer", doer, repo);
    const posterReRequest = doer.id === issue.posterId && issue.originalAuthorId === 0 && last !== null && last.type !== 'REQUEST';
    if (!canChange && !posterReRequest) throw invalid("Doer can't choose reviewer", doer, repo);
    if (last?.type === 'REQUEST') return null;
    if (last && (issue.isClosed || pull.hasMerged))
      throw new PermissionDeniedError('cannot request a re-review on a closed or merged PR', { reviewerId: reviewer.id });
  } else if (!canChange && !(last?.type === 'REQUEST' && last.reviewerId === doer.id)) {
    throw invalid("Doer can't remove reviewer", doer, repo);
  }
  const official = await isOfficialReviewer(cx.db, pull, reviewer);
  return withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const at = { issueId: issue.id, repoId: issue.repoId, index: issue.index, reviewerId: reviewer.id, teamId: null, actorId: doer.id };
      if (add) {
        if (await tx.review.findFirst({ where: { issueId: issue.id, reviewerId: reviewer.id, type: 'REQUEST' }, select: { id: true } }))
          return null;
        if (official) await tx.review.updateMany({ where: { issueId: issue.id, reviewerId: reviewer.id }, data: { official: false } });
        const review = await tx.review.create({ data: { type: 'REQUEST', issueId: issue.id, reviewerId: reviewer.id, official } });
        const comment = await tx.comment.create({
          data: { type: 'REVIEW_REQUEST', posterId: doer.id, issueId: issue.id, assigneeId: reviewer.id, reviewId: review.id },
        });
        emit({ type: 'pull.reviewRequested', ...at, commentId: comment.id });
        return review;
      }
      const request = await latestReviewOf(tx, issue.id, reviewer.id);
      if (request?.type !== 'REQUEST') return null;
      await tx.review.delete({ where: { id: request.id } });
      if (official) await restoreLatestOfficialReview(tx, issue.id, reviewer.id);
      const comment = await tx.comment.create({
        data: { type: 'REVIEW_REQUEST', posterId: doer.id, issueId: issue.id, assigneeId: reviewer.id, removedAssignee: true },
      });
      emit({ type: 'pull.reviewRequestRemoved', ...at, commentId: comment.id });
      return null;
    }),
  );
}

/**
 * Gitea isValidTeamReviewRequest + AddTeamReviewRequest / RemoveTeamReviewRequest for one team. A team request
 * is official when the doer's reviews are.
 */
async function changeTeamRequest(
  cx: ServiceContext,
  target: ReviewRequestTarget,
  doer: Models.User,
  team: Models.Team,
  add: boolean,
  canChange: boolean,
): Promise<Models.Review | null> {
  const { access, issue, pull } = target;
  const repo = access.repo;
  if (add) {
    if (repo.isPrivate && !(await teamHasRepo(cx.db, team, repo.id))) throw invalid("Reviewing team can't read repo", doer, repo);
    if (!canChange) throw invalid("Doer can't choose reviewer", doer, repo);
  } else if (!canChange) {
    throw invalid("Doer can't remove reviewer", doer, repo);
  }
  const official = add && (await isOfficialReviewer(cx.db, pull, doer));
  return withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const at = { issueId: issue.id, repoId: issue.repoId, index: issue.index, reviewerId: null, teamId: team.id, actorId: doer.id };
      const existing = await tx.review.findFirst({
        where: { issueId: issue.id, reviewerTeamId: team.id },
        orderBy: { id: 'desc' },
        select: { id: true },
      });
      if (add) {
        if (existing) return null;
        if (official) await tx.review.updateMany({ where: { issueId: issue.id, reviewerTeamId: team.id }, data: { official: false } });
        const review = await tx.review.create({ data: { type: 'REQUEST', issueId: issue.id, reviewerTeamId: team.id, official } });
        const comment = await tx.comment.create({
          data: { type: 'REVIEW_REQUEST', posterId: doer.id, issueId: issue.id, assigneeTeamId: team.id, reviewId: review.id },
        });
        emit({ type: 'pull.reviewRequested', ...at, commentId: comment.id });
        return review;
      }
      if (!existing) return null;
      await tx.review.delete({ where: { id: existing.id } });
      const comment = await tx.comment.create({
        data: { type: 'REVIEW_REQUEST', posterId: doer.id, issueId: issue.id, assigneeTeamId: team.id, removedAssignee: true },
      });
      emit({ type: 'pull.reviewRequestRemoved', ...at, commentId: comment.id });
      return null;
    }),
  );
}

/**
 * Adds (or removes) review requests on a pull request as the viewer, in Gitea's order: every name resolved
 * first (404), then users one by one, then teams; the first refusal stops (requests made before it stay).
 * Returns the requests newly created (already requested reviewers are skipped). Used by the REST and GraphQL
 * transports and by pull request creation (`reviewers` / `team_reviewers`).
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function requestReviews(
  cx: ServiceContext,
  target: ReviewRequestTarget,
  input: ReviewRequestInput,
  add = true,
): Promise<ReviewView[]> {
  const doer = requireViewer(cx);
  const repo = target.access.repo;
  const { users, teams } = await resolveReviewers(cx, repo, input);
  const canChange = await canChangeReviewRequests(cx, doer, repo, target.issue.posterId);
  const created: Models.Review[] = [];
  for (const user of users) {
    const review = await changeUserRequest(cx, target, doer, user, add, canChange);
    if (review) created.push(review);
  }
  for (const team of teams) {
    const review = await changeTeamRequest(cx, target, doer, team, add, canChange);
    if (review) created.push(review);
  }
  return loadReviewViews(cx.db, created, target.issue, repo);
}

/**
 * POST /repos/{o}/{r}/pulls/{index}/requested_reviewers (Gitea CreateReviewRequests): 201 with the new requests.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function addReviewRequests(cx: ServiceContext, ref: RepoRef, index: number, input: ReviewRequestInput): Promise<ReviewView[]> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const rows = await findPullByIndex(cx, access, index);
  return requestReviews(cx, { access, ...rows }, input, true);
}

/**
 * DELETE /repos/{o}/{r}/pulls/{index}/requested_reviewers (Gitea DeleteReviewRequests): withdraws requests; a
 * reviewer may withdraw their own.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function removeReviewRequests(cx: ServiceContext, ref: RepoRef, index: number, input: ReviewRequestInput): Promise<void> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const rows = await findPullByIndex(cx, access, index);
  await requestReviews(cx, { access, ...rows }, input, false);
}

/**
 * GitHub's requestReviews: requests reviews from these users and teams; unless `union`, also withdraws the
 * pending requests of everyone else (so the requested set becomes exactly the given one). Same rules as
 * requestReviews, removals first.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function setReviewRequests(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  input: ReviewRequestInput,
  union: boolean,
): Promise<ReviewView[]> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const target = { access, ...(await findPullByIndex(cx, access, index)) };
  if (!union) {
    const { users, teams } = await resolveReviewers(cx, access.repo, input);
    const keepUsers = new Set(users.map((u) => u.id));
    const keepTeams = new Set(teams.map((t) => t.id));
    const current = await cx.db.review.findMany({
      where: { issueId: target.issue.id, type: 'REQUEST' },
      select: { reviewer: { select: { name: true, id: true } }, reviewerTeam: { select: { name: true, id: true } } },
      orderBy: { id: 'asc' },
    });
    const drop: ReviewRequestInput = {
      reviewers: current.flatMap((r) => (r.reviewer && !keepUsers.has(r.reviewer.id) ? [r.reviewer.name] : [])),
      teamReviewers: current.flatMap((r) => (r.reviewerTeam && !keepTeams.has(r.reviewerTeam.id) ? [r.reviewerTeam.name] : [])),
    };
    if (drop.reviewers?.length || drop.teamReviewers?.length) await requestReviews(cx, target, drop, false);
  }
  return requestReviews(cx, target, input, true);
}
