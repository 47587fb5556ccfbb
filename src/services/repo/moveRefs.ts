// The one way a branch or tag moves (DESIGN.md §4, "One way for each dangerous change"). Every door of the API
// (createRef/updateRef/deleteRef, branch create/rename/delete, contents commits and createCommitOnBranch,
// merges and head-branch deletion, tags and releases) calls moveRefs or createTagRef, which ask the protection
// gate for their door (services/protection/branchGate.ts) under the repository's write lock, hold the push job
// and only then move the refs. git push is gated by its pre-receive hook (repo/pushJob.ts) with the same gate
// (requirePushAllowed) and probe (gitProbe). The rest of git's ref writers live here too, each with its own
// rule, so that nothing else imports them (eslint.config.js, REF_WRITERS): HEAD, hidden refs (refs/pull/*,
// temporary refs) and a mirror's fetch.
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, PermissionDeniedError } from '../../errors.ts';
import { createTag, type NewTag } from '../../git/createTag.ts';
import { fetchIntoRef } from '../../git/fetchIntoRef.ts';
import { readPushCommitLists } from '../../git/listPushCommits.ts';
import { readCommitSignatures } from '../../git/commitSignature.ts';
import { changedPaths, isForcePush, pushedCommits } from '../../git/pushProbe.ts';
import { readRef } from '../../git/readRefs.ts';
import { fetchMirror, type RemoteOptions } from '../../git/remoteMirror.ts';
import { repoPath, wikiPath } from '../../git/repoPath.ts';
import { deleteRef, deleteRefCAS, setRef, updateRefCAS } from '../../git/updateRef.ts';
import { writeHead } from '../../git/writeHead.ts';
import type { RefUpdate } from '../../notify/events.ts';
import { recordedPusherId } from '../../auth/actionsUser.ts';
import { repoPermission } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import {
  requireBranchDeletable,
  requireBranchRenamable,
  requireFilesWritable,
  requireMergeMoveAllowed,
  requirePushAllowed,
  type BranchUpdate,
  type PushProbe,
} from '../protection/branchGate.ts';
import { requireTagUpdatesAllowed } from '../protection/tagGate.ts';
import { PUSH_JOB, type PushPayload } from './pushJobKind.ts';
import { withRefLocks } from './refLocks.ts';

const ZERO = /^0+$/;
const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

/** Which door a ref update comes through: it decides what the protection gate asks. */
export type RefDoor =
  /** An API write standing for a push by the viewer (Gitea's pre-receive): deletion, force push, protected files, push whitelist. */
  | { kind: 'push' }
  /** A contents commit (Gitea ChangeRepoFiles): the viewer may push to the branch (site admins pass), and none of `paths` is protected. */
  | { kind: 'files'; paths: readonly string[] }
  /** A branch deletion through the API (Gitea DeleteBranch): no protected branch, whoever asks. */
  | { kind: 'delete' }
  /** A branch rename (Gitea RenameBranch): default and rule-named branches by admins only (the rule follows), pattern-protected ones never. */
  | { kind: 'rename'; from: string; to: string }
  /** A pull request merge moving its base: the merger may push or merge there (the pull request's own checks ran before). */
  | { kind: 'merge' };

/** Whether every update was applied, or the first one a concurrent writer beat (`current`: where that ref is, null when absent). */
export type MoveOutcome = { moved: true } | { moved: false; ref: string; current: string | null };

/** The probe of the branch write gate on the repository's own objects (with `env`, a push's quarantine too). */
export function gitProbe(gitDir: string, env: Record<string, string> = {}): PushProbe {
  return {
    isForcePush: (u) => isForcePush(gitDir, u.oldSha, u.newSha, env),
    changedFiles: (u) => changedPaths(gitDir, u.oldSha, u.newSha, env),
    pushedCommits: async (u) => {
      const shas = await pushedCommits(gitDir, u.oldSha, u.newSha, env);
      const sigs = await readCommitSignatures(gitDir, shas, env);
      return shas.flatMap((s) => sigs.get(s) ?? []);
    },
  };
}

function gitDirOf(cx: ServiceContext, repo: Models.Repository): string {
  return repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
}

function branchUpdates(updates: readonly RefUpdate[]): BranchUpdate[] {
  return updates
    .filter((u) => u.ref.startsWith(HEADS))
    .map((u) => ({ branch: u.ref.slice(HEADS.length), oldSha: u.oldSha, newSha: u.newSha }));
}

/** A door used for updates it does not describe is a programming error, never a user's. */
function misuse(door: RefDoor, updates: readonly RefUpdate[]): Error {
  return new Error(`moveRefs: ${door.kind} cannot apply ${updates.map((u) => `${u.oldSha}..${u.newSha} ${u.ref}`).join(', ')}`);
}

/** The protection gate of `door` for `updates`. @throws PermissionDeniedError */
async function requireDoorOpen(cx: ServiceContext, repo: Models.Repository, updates: readonly RefUpdate[], door: RefDoor): Promise<void> {
  if (repo.isMirror) throw new PermissionDeniedError('Git Repository is a mirror.');
  if (!updates.every((u) => u.ref.startsWith(HEADS) || u.ref.startsWith(TAGS))) throw misuse(door, updates);
  await requireTagUpdatesAllowed(cx, repo, updates);
  const branches = branchUpdates(updates);
  switch (door.kind) {
    case 'push':
      return requirePushAllowed(cx, repo, branches, gitProbe(gitDirOf(cx, repo)));
    case 'files': {
      if (branches.length !== updates.length || branches.some((b) => ZERO.test(b.newSha))) throw misuse(door, updates);
      const access = { repo, perm: await repoPermission(cx, repo.id) };
      for (const b of branches) await requireFilesWritable(cx, access, b.branch, door.paths);
      return;
    }
    case 'delete':
      if (branches.length !== updates.length || branches.some((b) => !ZERO.test(b.newSha))) throw misuse(door, updates);
      for (const b of branches) await requireBranchDeletable(cx.db, repo.id, b.branch);
      return;
    case 'rename': {
      const [to, from] = branches;
      const shape =
        branches.length === 2 && to?.branch === door.to && ZERO.test(to.oldSha) && from?.branch === door.from && ZERO.test(from.newSha);
      if (!shape || updates.length !== 2) throw misuse(door, updates);
      await requireBranchRenamable(cx, repo, await repoPermission(cx, repo.id), door.from);
      return;
    }
    case 'merge':
      if (branches.length !== updates.length) throw misuse(door, updates);
      return requireMergeMoveAllowed(cx, repo, branches);
  }
}

/** Moves one ref by compare-and-swap (a zero old id: only if absent; a zero new id: a deletion); null when done, else where the ref is. */
async function swap(gitDir: string, u: RefUpdate): Promise<{ current: string | null } | null> {
  if (u.oldSha === u.newSha) return null;
  if (ZERO.test(u.newSha)) return (await deleteRefCAS(gitDir, u.ref, u.oldSha)) ? null : { current: await readRef(gitDir, u.ref) };
  const r = await updateRefCAS(gitDir, u.ref, u.newSha, ZERO.test(u.oldSha) ? null : u.oldSha);
  return r.status === 'updated' ? null : { current: r.current };
}

/**
 * Applies `updates` in order, adding each to `applied` once git made it; when one loses its race, the earlier
 * ones are put back (best effort) and leave `applied`.
 */
async function applyUpdates(gitDir: string, updates: readonly RefUpdate[], applied: RefUpdate[]): Promise<MoveOutcome> {
  for (const u of updates) {
    const lost = await swap(gitDir, u);
    if (!lost) {
      applied.push(u);
      continue;
    }
    for (const d of [...applied].reverse()) {
      const undone = await swap(gitDir, { ref: d.ref, oldSha: d.newSha, newSha: d.oldSha }).catch(() => undefined);
      if (undone === null) applied.splice(applied.indexOf(d), 1);
    }
    return { moved: false, ref: u.ref, current: lost.current };
  }
  return { moved: true };
}

/**
 * The one way a branch or tag moves: under the write locks of the refs it moves (withRefLocks, re-entrant), asks the protection gate
 * of `door`, holds the push job (so a crash after the move still gets its bookkeeping), moves the refs by
 * compare-and-swap, runs `afterMove` (rows that must be in place before the push job's follow-ups), then the
 * push job with what was applied (feeds, webhooks, pull request refresh), as a push by the viewer. A lost race
 * is an outcome, not an error: the caller retries or answers 409.
 * @throws PermissionDeniedError (the gate), InvalidArgumentError, NotFoundError (an unknown commit)
 */
export async function moveRefs(
  cx: ServiceContext,
  repo: Models.Repository,
  updates: readonly RefUpdate[],
  door: RefDoor,
  opts: { afterMove?: () => Promise<void> } = {},
): Promise<MoveOutcome> {
  const refs = updates.map((u) => u.ref);
  return withRefLocks(cx, repo, refs, async () => {
    await requireDoorOpen(cx, repo, updates, door);
    return recorded(cx, repo, updates, async (applied) => {
      const outcome = await applyUpdates(gitDirOf(cx, repo), updates, applied);
      if (outcome.moved) {
        if (door.kind === 'rename') await followRename(cx, repo, door);
        await opts.afterMove?.();
      }
      return outcome;
    });
  });
}

/** A rule named after a renamed branch follows it (Gitea models/git RenameBranch). */
async function followRename(cx: ServiceContext, repo: Models.Repository, door: { from: string; to: string }): Promise<void> {
  await cx.db.protectedBranch.updateMany({ where: { repoId: repo.id, ruleName: door.from }, data: { ruleName: door.to } });
}

/**
 * Holds the push job of `updates` before `apply` moves anything, then runs it with the updates `apply` added to
 * `applied` (also when it throws). A crash in between replays the held job, which then reads git.
 */
async function recorded<T>(
  cx: ServiceContext,
  repo: Models.Repository,
  updates: readonly RefUpdate[],
  apply: (applied: RefUpdate[]) => Promise<T>,
): Promise<T> {
  const payload: PushPayload = { repoId: repo.id, pusherId: recordedPusherId(cx.viewer), updates: [...updates] };
  // The feed's commit lists, read while the job is held and the refs move (the objects are in the repository already).
  const listed = readPushCommitLists(gitDirOf(cx, repo), updates);
  const held = await cx.jobs.hold(PUSH_JOB, payload).finally(() => listed);
  const applied: RefUpdate[] = [];
  const finish = () => held.run({ ...payload, updates: applied.length ? [...applied] : payload.updates, applied: [...applied] });
  let result: T;
  try {
    result = await apply(applied);
  } catch (err) {
    await finish();
    throw err;
  }
  // Test hook: die between the ref update and its bookkeeping (the held job must replay it).
  if (cx.config.testCrashAfterRefUpdate && applied.length) process.kill(process.pid, 'SIGKILL');
  await listed;
  await finish();
  return result;
}

/**
 * Creates tag `tag.name` (annotated when it has a message and tagger; never moves an existing tag) through the
 * gate of an API push, runs `afterMove` with the new ref's value (the tag object of an annotated tag, else the
 * commit), then records the push. Returns the value.
 * @throws PermissionDeniedError, ValidationError, AlreadyExistsError, InvalidArgumentError
 */
export async function createTagRef(
  cx: ServiceContext,
  repo: Models.Repository,
  tag: NewTag,
  opts: { afterMove?: (value: string) => Promise<void> } = {},
): Promise<string> {
  const ref = `${TAGS}${tag.name}`;
  const zero = '0'.repeat(tag.commit.length);
  const intended = [{ ref, oldSha: zero, newSha: tag.commit }];
  return withRefLocks(cx, repo, [ref], async () => {
    await requireDoorOpen(cx, repo, intended, { kind: 'push' });
    return recorded(cx, repo, intended, async (applied) => {
      const value = await createTag(gitDirOf(cx, repo), tag);
      applied.push({ ref, oldSha: zero, newSha: value });
      await opts.afterMove?.(value);
      return value;
    });
  });
}

/** Points HEAD (the default branch) at `branch`: no branch moves, so no gate (its callers are repository admins, renames, first pushes, migrations). */
export async function setDefaultHead(gitDir: string, branch: string): Promise<void> {
  await writeHead(gitDir, branch);
}

/** Refs the product keeps for itself (pull request heads, temporary refs), never a branch or a tag. */
const HIDDEN = /^refs\/(?:pull|forgegraph)\//;

function requireHidden(ref: string): void {
  if (!HIDDEN.test(ref)) throw new InvalidArgumentError(`${ref} is not a hidden ref (refs/pull/…, refs/forgegraph/…)`, { ref });
}

/** Points a hidden ref (refs/pull/N/head, a temporary ref) at `sha`. @throws InvalidArgumentError, NotFoundError */
export async function setHiddenRef(gitDir: string, ref: string, sha: string): Promise<void> {
  requireHidden(ref);
  await setRef(gitDir, ref, sha);
}

/** Makes commit `sha` of another repository available under a hidden ref (see git/fetchIntoRef). @throws InvalidArgumentError, NotFoundError */
export async function fetchIntoHiddenRef(targetGitDir: string, sourceGitDir: string, sha: string, ref: string): Promise<void> {
  requireHidden(ref);
  await fetchIntoRef(targetGitDir, sourceGitDir, sha, ref);
}

/** Deletes a hidden ref (missing is fine). @throws InvalidArgumentError */
export async function deleteHiddenRef(gitDir: string, ref: string): Promise<void> {
  requireHidden(ref);
  await deleteRef(gitDir, ref);
}

/**
 * A mirror's (or a repository being migrated's) fetch of every ref of its source: its branches and tags follow
 * the source, which protection does not govern (Gitea's mirror sync); every other door refuses to write a mirror.
 * `wiki`: the repository's wiki. @throws PermissionDeniedError for any other repository; GitCommandError
 */
export async function fetchMirrorRefs(
  cx: ServiceContext,
  repo: Models.Repository,
  target: 'code' | 'wiki',
  prune: boolean,
  opts: RemoteOptions,
): Promise<void> {
  if (!repo.isMirror && repo.status !== 'BEING_MIGRATED')
    throw new PermissionDeniedError('Git Repository is not a mirror.', { repoId: repo.id });
  const dir = target === 'wiki' ? wikiPath : repoPath;
  await fetchMirror(dir(cx.config.repositoriesDir, repo.ownerName, repo.name), prune, opts);
}

/**
 * Moves the wiki's branch to `newSha` by compare-and-swap (`oldSha` null: only if the branch does not exist yet),
 * for the wiki service's page writes. The wiki is a repository of its own: no branch protection (Gitea's wiki has
 * none), no push bookkeeping of the code (feeds, pull requests, actions); the wiki service records its webhook.
 * Returns whether the branch moved (false: another writer got there first).
 */
export async function moveWikiBranch(
  cx: ServiceContext,
  repo: Models.Repository,
  branch: string,
  oldSha: string | null,
  newSha: string,
): Promise<boolean> {
  const r = await updateRefCAS(wikiPath(cx.config.repositoriesDir, repo.ownerName, repo.name), `${HEADS}${branch}`, newSha, oldSha);
  return r.status === 'updated';
}
