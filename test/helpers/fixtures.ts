import type { Models } from '../../src/db/client.ts';
import * as assigneeService from '../../src/services/issue/assignee.ts';
import * as commentService from '../../src/services/issue/comment.ts';
import * as reactionService from '../../src/services/issue/reaction.ts';
import * as milestoneService from '../../src/services/milestone/milestone.ts';
import * as labelService from '../../src/services/label/label.ts';
import * as teamService from '../../src/services/org/team.ts';
import * as teamMemberService from '../../src/services/org/teamMember.ts';
import * as teamRepoService from '../../src/services/org/teamRepo.ts';
import * as collaboratorService from '../../src/services/repo/collaborator.ts';
import * as repoService from '../../src/services/repo/create.ts';
import * as repoEditService from '../../src/services/repo/edit.ts';
import * as repoLabelService from '../../src/services/label/repoLabel.ts';
import * as blockService from '../../src/services/user/block.ts';
import * as userService from '../../src/services/user/user.ts';
import type { TestApp } from './app.ts';
import { contextFor, orgOwner } from './org.ts';

/** A repository as fixtures name it: its owner's login and its name (a Models.Repository will do). */
export type RepoName = Pick<Models.Repository, 'ownerName' | 'name'>;

/** Who administers `repo` for fixtures: its owner, or the first owner of its organization. */
export async function repoAdmin(t: TestApp, repo: RepoName): Promise<Models.User> {
  const owner = await t.db.user.findUniqueOrThrow({ where: { lowerName: repo.ownerName.toLowerCase() } });
  return owner.type === 'ORGANIZATION' ? orgOwner(t, owner) : owner;
}

/*
 * Fixtures made the way the product makes them: through the services, as a user who may do it (or the CLI's
 * system context for site-admin operations). Every state a test starts from is then one users can reach (a
 * repository has its git directory, an organization its Owners team, counters agree with rows). Tests that
 * need a state the services refuse on purpose write rows directly, and say why.
 */

/** Options of a repository fixture (Gitea's CreateRepoOption, plus who creates it). */
export interface RepoFixtureInput {
  private?: boolean;
  /** An initial commit on the default branch (README). */
  autoInit?: boolean;
  defaultBranch?: string;
  description?: string;
  /** Create it in this organization (as `actor`, who must be allowed to). */
  org?: Pick<Models.User, 'name'>;
}

/** Creates a repository through the repository service, as `actor` (the owner, or a member of `org`). */
export async function createRepo(t: TestApp, actor: Models.User, name: string, opts: RepoFixtureInput = {}): Promise<Models.Repository> {
  const { repo } = await repoService.createRepo(contextFor(t, actor), opts.org ? { kind: 'org', org: opts.org.name } : { kind: 'viewer' }, {
    name,
    private: opts.private ?? false,
    autoInit: opts.autoInit ?? false,
    ...(opts.defaultBranch ? { defaultBranch: opts.defaultBranch } : {}),
    ...(opts.description ? { description: opts.description } : {}),
  });
  return t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
}

/** Edits a repository's settings (Gitea's EditRepoOption: units, archived, private…) as its owner (or `as`). */
export async function editRepo(
  t: TestApp,
  repo: RepoName,
  input: repoEditService.EditRepoInput,
  opts: { as?: Models.User } = {},
): Promise<Models.Repository> {
  const actor = opts.as ?? (await repoAdmin(t, repo));
  const edited = await repoEditService.editRepo(contextFor(t, actor), { owner: repo.ownerName, repo: repo.name }, input);
  return t.db.repository.findUniqueOrThrow({ where: { id: edited.repo.id } });
}

/** Keeps only `units` enabled on `repo` (the others switched off through the repository settings, as its owner). */
export function setUnits(t: TestApp, repo: RepoName, units: readonly Models.RepoUnitType[]): Promise<Models.Repository> {
  const has = (u: Models.RepoUnitType) => units.includes(u);
  return editRepo(t, repo, {
    hasCode: has('CODE'),
    hasIssues: has('ISSUES'),
    hasPullRequests: has('PULL_REQUESTS'),
    hasReleases: has('RELEASES'),
    hasWiki: has('WIKI'),
    hasProjects: has('PROJECTS'),
    hasPackages: has('PACKAGES'),
    hasActions: has('ACTIONS'),
  });
}

/** Makes `user` a collaborator of `repo` with `permission` (read, write, admin), as the repository's owner (or `as`). */
export async function addCollaborator(
  t: TestApp,
  repo: RepoName,
  user: Pick<Models.User, 'name'>,
  permission: 'read' | 'write' | 'admin' | Models.AccessMode = 'write',
  opts: { as?: Models.User } = {},
): Promise<void> {
  const actor = opts.as ?? (await repoAdmin(t, repo));
  await collaboratorService.addOrUpdateCollaborator(
    contextFor(t, actor),
    { owner: repo.ownerName, repo: repo.name },
    user.name,
    permission.toLowerCase(),
  );
}

/** `blocker` (a user, or an organization through one of its owners `as`) blocks `blockee`. */
export async function blockUser(
  t: TestApp,
  blocker: Models.User,
  blockee: Pick<Models.User, 'name'>,
  opts: { as?: Models.User; note?: string } = {},
): Promise<void> {
  const ref = blocker.type === 'ORGANIZATION' ? { org: blocker.name } : {};
  await blockService.blockUser(contextFor(t, opts.as ?? blocker), ref, blockee.name, opts.note ?? '');
}

/** `blocker` (a user) unblocks `blockee`. */
export async function unblockUser(t: TestApp, blocker: Models.User, blockee: Pick<Models.User, 'name'>): Promise<void> {
  await blockService.unblockUser(contextFor(t, blocker), {}, blockee.name);
}

/** Deletes a user as a site admin (DELETE /admin/users/{username}); `purge` also removes their repositories and memberships. */
export async function deleteUser(t: TestApp, user: Pick<Models.User, 'name'>, opts: { purge?: boolean } = {}): Promise<void> {
  await userService.deleteUser(t.system, user.name, opts);
}

/** Comments on an issue as `poster` (through the comment service: counters, feed and events follow). */
export async function createComment(
  t: TestApp,
  poster: Models.User,
  issue: Pick<Models.Issue, 'repoId' | 'index'>,
  body = 'a comment',
): Promise<Models.Comment> {
  const repo = await t.db.repository.findUniqueOrThrow({ where: { id: issue.repoId } });
  const view = await commentService.createComment(contextFor(t, poster), { owner: repo.ownerName, repo: repo.name }, issue.index, body);
  return view.comment;
}

/** Assigns users to an issue as `actor` (a writer of the repository's issues, by default its owner). */
export async function addAssignees(
  t: TestApp,
  issue: Pick<Models.Issue, 'repoId' | 'index'>,
  users: ReadonlyArray<Pick<Models.User, 'name'>>,
  opts: { as?: Models.User } = {},
): Promise<void> {
  const repo = await t.db.repository.findUniqueOrThrow({ where: { id: issue.repoId } });
  const actor = opts.as ?? (await repoAdmin(t, repo));
  const ref = { owner: repo.ownerName, repo: repo.name };
  await assigneeService.addAssignees(
    contextFor(t, actor),
    { ref, index: issue.index },
    users.map((u) => u.name),
  );
}

/** Reacts to an issue (no `commentId`) or to one of its comments, as `actor`. */
export async function react(
  t: TestApp,
  actor: Models.User,
  repo: RepoName,
  target: { index: number } | { commentId: number },
  content: string,
): Promise<void> {
  const ref = { owner: repo.ownerName, repo: repo.name };
  if ('commentId' in target) await reactionService.createCommentReaction(contextFor(t, actor), ref, target.commentId, content);
  else await reactionService.createIssueReaction(contextFor(t, actor), ref, target.index, content);
}

/** Creates a repository label as the repository's owner (or `as`, a writer of its issues). */
export async function createRepoLabel(
  t: TestApp,
  repo: RepoName,
  input: labelService.CreateLabelInput,
  opts: { as?: Models.User } = {},
): Promise<Models.Label> {
  const actor = opts.as ?? (await repoAdmin(t, repo));
  return repoLabelService.createRepoLabel(contextFor(t, actor), { owner: repo.ownerName, repo: repo.name }, input);
}

/** Creates a milestone as the repository's owner (or `as`, a writer of its issues). */
export async function createMilestone(
  t: TestApp,
  repo: RepoName,
  input: milestoneService.CreateMilestoneInput,
  opts: { as?: Models.User } = {},
): Promise<Models.Milestone> {
  const actor = opts.as ?? (await repoAdmin(t, repo));
  return milestoneService.createMilestone(contextFor(t, actor), { owner: repo.ownerName, repo: repo.name }, input);
}

/** Creates a team in `org` as `actor` (an owner), with Gitea's CreateTeamOption. */
export function createTeam(
  t: TestApp,
  actor: Models.User,
  org: Pick<Models.User, 'name'>,
  input: teamService.TeamInput,
): Promise<teamService.TeamRow> {
  return teamService.createTeam(contextFor(t, actor), org.name, input);
}

/** Adds `user` to a team as `actor` (an owner of its organization); the user joins the organization. */
export async function addTeamMember(
  t: TestApp,
  actor: Models.User,
  team: Pick<Models.Team, 'id'>,
  user: Pick<Models.User, 'name'>,
): Promise<void> {
  await teamMemberService.addTeamMember(contextFor(t, actor), team.id, user.name);
}

/** Gives a team access to one of its organization's repositories, as `actor` (an owner). */
export async function addTeamRepo(t: TestApp, actor: Models.User, team: Pick<Models.Team, 'id'>, repo: RepoName): Promise<void> {
  await teamRepoService.addTeamRepo(contextFor(t, actor), team.id, repo.ownerName, repo.name);
}

/** Edits a user as a site admin would (Gitea's EditUserOption: active, restricted, visibility, limits…). */
export function editUser(t: TestApp, user: Pick<Models.User, 'name'>, input: userService.EditUserInput): Promise<Models.User> {
  return userService.editUser(t.system, user.name, input);
}
