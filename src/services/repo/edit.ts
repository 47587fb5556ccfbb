import type { DbTx, Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { listBranches } from '../../git/listBranches.ts';
import { repoPath } from '../../git/repoPath.ts';
import type { RepoPermission } from '../../permissions/repoPermission.ts';
import { isSiteAdmin } from '../access/guards.ts';
import { goDuration, parseGoDuration } from '../goDuration.ts';
import { type RepoRef, requireAdminRepo } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { setDefaultHead } from './moveRefs.ts';
import type { PullSettings } from './pullSettings.ts';
import { withRepoHeld } from './heldRepo.ts';
import { moveRepoDirs, repoDirs } from './repoDirs.ts';
import { planUnits, type UnitPlan, type UnitsInput } from './repoUnitPlan.ts';
import { loadApiRepos, type ApiRepoRow } from './repoRows.ts';
import { validateRepoNameSyntax, validateRepoNameUsable } from './validate.ts';

export type { PullSettings };

type Repository = Models.Repository;

/** Gitea EditRepoOption: every field optional; only the fields that are set change (the units' fields: UnitsInput). */
export interface EditRepoInput extends UnitsInput {
  name?: string;
  description?: string;
  website?: string;
  private?: boolean;
  template?: boolean;
  defaultBranch?: string;
  archived?: boolean;
  mirrorInterval?: string;
  enablePrune?: boolean;
}

/** The edited repository, re-read, with the viewer's fresh permission. */
export interface EditedRepo {
  repo: ApiRepoRow;
  perm: RepoPermission;
}

/** Gitea `[mirror] MIN_INTERVAL` (10m), in seconds. */
export const MIN_MIRROR_INTERVAL = 600;

/** Whether branch `name` exists: a live Branch row, or the ref in the git repository. */
async function branchExists(cx: ServiceContext, repo: Repository, gitDir: string, name: string): Promise<boolean> {
  const row = await cx.db.branch.findUnique({ where: { repoId_name: { repoId: repo.id, name } }, select: { isDeleted: true } });
  if (row && !row.isDeleted) return true;
  try {
    return (await listBranches(gitDir, name)).length > 0;
  } catch {
    return false;
  }
}

/**
 * Spec rule 2 (ours; Gitea documents it without implementing it): when the owning organization restricts
 * visibility changes to its owners, only its owners and site admins may change `private`.
 * @throws ValidationError
 */
async function checkVisibilityChange(cx: ServiceContext, repo: Repository): Promise<void> {
  const owner = await cx.loaders.userById.load(repo.ownerId);
  if (!owner || owner.type !== 'ORGANIZATION' || !owner.restrictVisibilityChangesToOwners || isSiteAdmin(cx)) return;
  const standing = await cx.loaders.orgStanding.load(owner.id);
  if (!standing.isOwner) {
    throw new ValidationError(`only owners of the organization ${owner.name} can change the visibility of its repositories`, {
      orgId: owner.id,
    });
  }
}

/** Making a repository private: its activity becomes private and its stars and watches are cleared (Gitea updateRepository). */
async function becomePrivate(tx: DbTx, repoId: number): Promise<void> {
  await tx.action.updateMany({ where: { repoId }, data: { isPrivate: true } });
  const stars = await tx.star.findMany({ where: { repoId }, select: { userId: true } });
  if (stars.length)
    await tx.user.updateMany({
      where: { id: { in: stars.map((s) => s.userId) }, numStars: { gt: 0 } },
      data: { numStars: { decrement: 1 } },
    });
  await tx.star.deleteMany({ where: { repoId } });
  await tx.watch.deleteMany({ where: { repoId } });
  await tx.repository.update({ where: { id: repoId }, data: { numStars: 0, numWatches: 0 } });
}

/**
 * Forks follow their base's visibility, all the way down the fork tree (Gitea updateRepository): a fork is
 * private when its base is private or the base's owner is a private organization or user.
 */
async function propagateVisibilityToForks(tx: DbTx, baseId: number, isPrivate: boolean): Promise<void> {
  const seen = new Set([baseId]);
  let parents = [baseId];
  while (parents.length) {
    const forks = (
      await tx.repository.findMany({ where: { forkId: { in: parents }, isFork: true }, select: { id: true, isPrivate: true } })
    ).filter((f) => !seen.has(f.id));
    const changing = forks.filter((f) => f.isPrivate !== isPrivate).map((f) => f.id);
    if (changing.length) await tx.repository.updateMany({ where: { id: { in: changing } }, data: { isPrivate } });
    if (isPrivate) for (const id of changing) await becomePrivate(tx, id);
    for (const f of forks) seen.add(f.id);
    parents = forks.map((f) => f.id);
  }
}

/** Everything an edit will write, computed and validated before anything is written. */
interface EditPlan {
  data: Models.Prisma.RepositoryUncheckedUpdateInput;
  fields: string[];
  newName: string;
  /** The git directories' move of a real rename (not of a case-only change): the code's and the wiki's. */
  moved: { from: string[]; to: string[] } | null;
  makePrivate: boolean;
  headBranch: string | null;
  units: UnitPlan;
  mirror: Models.Prisma.MirrorUpdateManyMutationInput | null;
}

function setField(plan: EditPlan, field: string, data: Models.Prisma.RepositoryUncheckedUpdateInput): void {
  Object.assign(plan.data, data);
  plan.fields.push(field);
}

/** Name (rename or case-only change), description, website, private, template. @throws ValidationError */
async function planBasics(cx: ServiceContext, repo: Repository, input: EditRepoInput, plan: EditPlan): Promise<void> {
  if (input.name !== undefined && input.name !== repo.name) {
    const name = input.name;
    if (name === '') throw new ValidationError('ChangeRepositoryName: name is empty');
    validateRepoNameSyntax(name);
    if (name.toLowerCase() !== repo.lowerName) {
      validateRepoNameUsable(name);
      const taken = await cx.db.repository.findUnique({
        where: { ownerId_lowerName: { ownerId: repo.ownerId, lowerName: name.toLowerCase() } },
        select: { id: true },
      });
      if (taken) throw new ValidationError(`repository already exists [uname: ${repo.ownerName}, name: ${name}]`);
      const dir = cx.config.repositoriesDir;
      plan.moved = { from: repoDirs(dir, repo.ownerName, repo.name), to: repoDirs(dir, repo.ownerName, name) };
    }
    plan.newName = name;
    setField(plan, 'name', { name, lowerName: name.toLowerCase() });
  }
  if (input.description !== undefined) setField(plan, 'description', { description: input.description });
  if (input.website !== undefined) setField(plan, 'website', { website: input.website });
  if (input.private !== undefined) {
    let wanted = input.private;
    if (repo.isFork && repo.forkId !== null) {
      const base = await cx.db.repository.findUnique({ where: { id: repo.forkId }, select: { isPrivate: true } });
      if (base) wanted = base.isPrivate;
    }
    if (wanted !== repo.isPrivate) {
      await checkVisibilityChange(cx, repo);
      plan.makePrivate = wanted;
      setField(plan, 'private', { isPrivate: wanted });
    }
  }
  if (input.template !== undefined) setField(plan, 'template', { isTemplate: input.template });
}

/** Default branch (only when it exists or the repository is empty), archive state and mirror settings. @throws ValidationError */
async function planRest(cx: ServiceContext, repo: Repository, input: EditRepoInput, plan: EditPlan): Promise<void> {
  const branch = input.defaultBranch;
  if (branch !== undefined && branch !== '' && branch !== repo.defaultBranch) {
    const dirNow = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
    if (repo.isEmpty || (await branchExists(cx, repo, dirNow, branch))) {
      plan.headBranch = branch;
      setField(plan, 'default_branch', { defaultBranch: branch });
    }
  }
  plan.units = planUnits(await cx.db.repoUnit.findMany({ where: { repoId: repo.id } }), input);
  if (plan.units.upsert.size || plan.units.remove.size) plan.fields.push('units');
  if (input.archived !== undefined) {
    if (repo.isMirror) throw new ValidationError('repo is a mirror, cannot archive/un-archive');
    if (input.archived !== repo.isArchived) {
      setField(plan, 'archived', { isArchived: input.archived, archivedAt: input.archived ? new Date() : null });
    }
  }
  // Mirror settings make sense only on mirrors; elsewhere they are ignored (as the reference describes).
  if (!repo.isMirror || (input.mirrorInterval === undefined && input.enablePrune === undefined)) return;
  const mirror: Models.Prisma.MirrorUpdateManyMutationInput = {};
  if (input.mirrorInterval !== undefined) {
    const seconds = parseGoDuration(input.mirrorInterval);
    if (seconds !== 0 && seconds < MIN_MIRROR_INTERVAL) {
      throw new ValidationError(
        `invalid mirror interval: ${goDuration(seconds)} is below minimum interval: ${goDuration(MIN_MIRROR_INTERVAL)}`,
      );
    }
    Object.assign(mirror, { interval: seconds, nextUpdateAt: seconds > 0 ? new Date(Date.now() + seconds * 1000) : null });
  }
  if (input.enablePrune !== undefined) mirror.enablePrune = input.enablePrune;
  plan.mirror = mirror;
  plan.fields.push('mirror');
}

/**
 * Writes the plan; one that moves the git directories or HEAD does it holding the repository (withRepoHeld), so no
 * push or merge runs in a directory while it moves, and a rename planned before another one finished is refused.
 */
function applyPlan(cx: ServiceContext, repo: Repository, plan: EditPlan): Promise<void> {
  if (!plan.moved && plan.headBranch === null) return writePlan(cx, repo, plan);
  return withRepoHeld(cx, repo, () => writePlan(cx, repo, plan));
}

/**
 * Writes the plan: the git directories first (moved back if the transaction fails; none yet: the rename is a
 * database change only), then one transaction, then HEAD.
 */
async function writePlan(cx: ServiceContext, repo: Repository, plan: EditPlan): Promise<void> {
  let undoMove: (() => Promise<void>) | null = null;
  if (plan.moved) {
    try {
      undoMove = await moveRepoDirs(plan.moved.from, plan.moved.to);
    } catch {
      throw new ValidationError(`repository already exists [uname: ${repo.ownerName}, name: ${plan.newName}]`);
    }
  }
  const actorId = cx.viewer?.id ?? null;
  try {
    await withTx(cx, async (tx, emit) => {
      if (Object.keys(plan.data).length) await tx.repository.update({ where: { id: repo.id }, data: plan.data });
      if (plan.newName.toLowerCase() !== repo.lowerName) {
        await tx.repoRedirect.deleteMany({ where: { ownerId: repo.ownerId, lowerName: plan.newName.toLowerCase() } });
        await tx.repoRedirect.upsert({
          where: { ownerId_lowerName: { ownerId: repo.ownerId, lowerName: repo.lowerName } },
          create: { ownerId: repo.ownerId, lowerName: repo.lowerName, redirectRepoId: repo.id },
          update: { redirectRepoId: repo.id },
        });
        emit({ type: 'repo.renamed', repoId: repo.id, oldName: repo.name, actorId });
      }
      if (plan.makePrivate) await becomePrivate(tx, repo.id);
      if (plan.fields.includes('private')) {
        const owner = await tx.user.findUnique({ where: { id: repo.ownerId }, select: { visibility: true } });
        await propagateVisibilityToForks(tx, repo.id, plan.makePrivate || owner?.visibility === 'PRIVATE');
      }
      const removed = [...plan.units.remove].filter((t) => !plan.units.upsert.has(t));
      if (removed.length) await tx.repoUnit.deleteMany({ where: { repoId: repo.id, type: { in: removed } } });
      for (const [type, config] of plan.units.upsert) {
        const json = JSON.stringify(config);
        await tx.repoUnit.upsert({
          where: { repoId_type: { repoId: repo.id, type } },
          create: { repoId: repo.id, type, config: json },
          update: { config: json },
        });
      }
      if (plan.mirror) await tx.mirror.updateMany({ where: { repoId: repo.id }, data: plan.mirror });
      if (plan.fields.length) emit({ type: 'repo.updated', repoId: repo.id, actorId, fields: plan.fields });
    });
  } catch (err) {
    await undoMove?.();
    throw err;
  }
  if (plan.headBranch !== null) {
    // An empty repository may have no usable directory; its HEAD then follows on creation or first push.
    await setDefaultHead(repoPath(cx.config.repositoriesDir, repo.ownerName, plan.newName), plan.headBranch).catch((err: unknown) => {
      if (!repo.isEmpty) throw err;
    });
  }
}

/**
 * Edits a repository (PATCH /repos/{o}/{r}, Gitea Edit), repository admins only. Only given fields change,
 * in Gitea's order: name (a rename moves the git directory and leaves a redirect for the old name; a
 * case-only change just renames), description, website, private (forks follow their base), template,
 * default branch (only when it exists or the repository is empty; otherwise silently kept), units,
 * archived (with archived_at; not for mirrors), mirror settings (ignored on non-mirrors).
 * Unlike Gitea, everything is validated before anything is written, so a 422 leaves the repository as it was.
 * The response uses the viewer's permission recomputed after the change.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function editRepo(cx: ServiceContext, ref: RepoRef, input: EditRepoInput): Promise<EditedRepo> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const plan: EditPlan = {
    data: {},
    fields: [],
    newName: repo.name,
    moved: null,
    makePrivate: false,
    headBranch: null,
    units: { upsert: new Map(), remove: new Set() },
    mirror: null,
  };
  await planBasics(cx, repo, input, plan);
  await planRest(cx, repo, input, plan);
  await applyPlan(cx, repo, plan);
  cx.loaders.repoPermission.clear(repo.id);
  const [row] = await loadApiRepos(cx, { where: { id: repo.id } });
  if (!row) throw new NotFoundError('repository does not exist', { repoId: repo.id });
  return { repo: row, perm: await cx.loaders.repoPermission.load(repo.id) };
}
