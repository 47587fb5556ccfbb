import { existsSync } from 'node:fs';
import type { Models } from '../../db/client.ts';
import { fsckRepository } from '../../git/fsck.ts';
import { gcRepository } from '../../git/gc.ts';
import { initRepository } from '../../git/initRepository.ts';
import { hooksDir, installHooks } from '../../git/installHooks.ts';
import { repoPath, wikiPath } from '../../git/repoPath.ts';
import { updateRepoSize } from '../repo/upkeepJob.ts';
import { setHooksPath } from '../../git/setHooksPath.ts';
import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import type { ServiceContext } from '../context.ts';
import { removeRepository } from '../repo/delete.ts';
import { withRepoRow } from '../repo/heldRepo.ts';

const PAGE = 100;

/** Calls `fn` for every repository (matching `where`), in id order, page by page; stops early when the run is aborted. */
export async function eachRepository(
  cx: ServiceContext,
  run: CronRun,
  where: Models.Prisma.RepositoryWhereInput,
  fn: (repo: Models.Repository, gitDir: string) => Promise<void>,
): Promise<number> {
  let after = 0;
  let seen = 0;
  for (;;) {
    const page = await cx.db.repository.findMany({ where: { ...where, id: { gt: after } }, orderBy: { id: 'asc' }, take: PAGE });
    for (const repo of page) {
      if (run.signal.aborted) return seen;
      await fn(repo, repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name));
      seen++;
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE) return seen;
    after = last.id;
  }
}

function stopped(run: CronRun): string {
  return run.signal.aborted ? ' (stopped early: shutting down)' : '';
}

async function notice(cx: ServiceContext, description: string): Promise<void> {
  await cx.db.systemNotice.create({ data: { type: 'REPOSITORY', description } });
}

/** The repository's wiki directory, when it has one. */
function wikiDirOf(cx: ServiceContext, repo: Models.Repository): string | null {
  const dir = wikiPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  return existsSync(dir) ? dir : null;
}

/**
 * Gitea repo_health_check: `git fsck` on every repository with fsck enabled, and on its wiki (Gitea GitFsckRepo);
 * each failure becomes a repository notice.
 */
export async function repoHealthCheck(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const failed: string[] = [];
  const opts = { args: run.settings.args ?? [], timeoutMs: run.settings.timeoutMs ?? 60_000, signal: run.signal };
  const checked = await eachRepository(cx, run, { isFsckEnabled: true }, async (repo, gitDir) => {
    const wikiDir = wikiDirOf(cx, repo);
    for (const [dir, what] of [[gitDir, 'Repository'], ...(wikiDir ? [[wikiDir, 'Wiki'] as const] : [])] as const) {
      const complaint = await fsckRepository(dir, opts).catch((err: unknown) => (run.signal.aborted ? '' : String(err)));
      if (!complaint) continue;
      failed.push(`${repo.ownerName}/${repo.name}${what === 'Wiki' ? ' (wiki)' : ''}`);
      await notice(cx, `${what} health check failed for ${repo.ownerName}/${repo.name}: ${complaint}`);
    }
  });
  const summary = `checked ${checked} repositories${stopped(run)}`;
  if (failed.length) throw new Error(`${summary}; ${failed.length} failed git fsck: ${failed.join(', ')}`);
  return { message: `${summary}; all healthy` };
}

/** Gitea git_gc_repos: `git gc` on every repository, then its size is updated. */
export async function gitGcRepos(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const failed: string[] = [];
  const done = await eachRepository(cx, run, { isEmpty: false }, async (repo, gitDir) => {
    try {
      const opts = { args: run.settings.args ?? [], timeoutMs: run.settings.timeoutMs ?? 60_000, signal: run.signal };
      await gcRepository(gitDir, opts);
      const wikiDir = wikiDirOf(cx, repo);
      if (wikiDir) await gcRepository(wikiDir, opts);
      await updateRepoSize(cx.db, repo, gitDir);
    } catch (err) {
      if (run.signal.aborted) return;
      failed.push(`${repo.ownerName}/${repo.name}`);
      await notice(cx, `Repository garbage collection failed for ${repo.ownerName}/${repo.name}: ${String(err)}`);
    }
  });
  const summary = `garbage-collected ${done - failed.length} of ${done} repositories${stopped(run)}`;
  if (failed.length) throw new Error(`${summary}; failed: ${failed.join(', ')}`);
  return { message: summary };
}

/** Gitea resync_all_hooks: rewrites the shared git hooks and points every repository (and its wiki) at them again. */
export async function resyncAllHooks(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  await installHooks(cx.config.dataDir, { customHooks: !cx.config.disableGitHooks });
  const dir = hooksDir(cx.config.dataDir);
  let missing = 0;
  const seen = await eachRepository(cx, run, {}, async (repo, gitDir) => {
    if (!existsSync(gitDir)) {
      missing++;
      return;
    }
    await setHooksPath(gitDir, dir);
    const wikiDir = wikiDirOf(cx, repo);
    if (wikiDir) await setHooksPath(wikiDir, dir);
  });
  return {
    message: `hooks reinstalled; ${seen - missing} repositories point at them${missing ? ` (${missing} missing on disk)` : ''}${stopped(run)}`,
  };
}

/**
 * Gitea reinit_missing_repos: a repository whose directory is gone gets a new empty one (and is marked empty). Under
 * the whole repository's lock, as every writer of its refs takes theirs (refLocks.ts): none runs while the directory
 * is made anew and its branches forgotten, and the first push after it finds the repository empty and holds the
 * whole of it in turn. The repository is read again once the lock is held: it may have been deleted or renamed, or
 * its directory may have come back (restored by an administrator) while the task waited; then it is left as it is.
 */
export async function reinitMissingRepos(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const done: string[] = [];
  await eachRepository(cx, run, {}, async (listed, listedDir) => {
    if (existsSync(listedDir)) return;
    const reinitialised = await whileStillMissing(cx, listed.id, async (repo, gitDir) => {
      await initRepository({
        gitdir: gitDir,
        defaultBranch: repo.defaultBranch,
        objectFormat: repo.objectFormatName === 'sha256' ? 'sha256' : 'sha1',
        hooksDir: hooksDir(cx.config.dataDir),
      });
      await cx.db.$transaction([
        cx.db.repository.update({ where: { id: repo.id }, data: { isEmpty: true, gitSize: 0, size: repo.lfsSize } }),
        cx.db.branch.deleteMany({ where: { repoId: repo.id } }),
      ]);
      return repo;
    });
    if (!reinitialised) return;
    const { ownerName, name } = reinitialised;
    done.push(`${ownerName}/${name}`);
    await notice(cx, `Repository ${ownerName}/${name} was missing on disk and has been reinitialised empty`);
  });
  return {
    message: done.length ? `reinitialised ${done.length}: ${done.join(', ')}${stopped(run)}` : `no repository is missing${stopped(run)}`,
  };
}

/**
 * Runs `fn` holding the whole repository `id` (its lock, as every writer takes) with its row read once the lock is
 * held, if its directory is missing still: the repository may have been deleted or renamed, or its directory restored
 * by an administrator, while the task waited; then nothing runs (null).
 */
function whileStillMissing<T>(
  cx: ServiceContext,
  id: number,
  fn: (repo: Models.Repository, gitDir: string) => Promise<T>,
): Promise<T | null> {
  return withRepoRow(cx, id, async (repo) => {
    if (!repo) return null;
    const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
    return existsSync(gitDir) ? null : fn(repo, gitDir);
  });
}

/** Gitea delete_missing_repos: a repository whose directory is gone (still, once its lock is held) is deleted from the database. */
export async function deleteMissingRepos(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const missing: Models.Repository[] = [];
  await eachRepository(cx, run, {}, async (repo, gitDir) => {
    if (!existsSync(gitDir)) missing.push(repo);
  });
  const names: string[] = [];
  for (const listed of missing) {
    const removed = await whileStillMissing(cx, listed.id, async (repo) => {
      await removeRepository(cx, repo, null);
      return repo;
    });
    if (!removed) continue;
    names.push(`${removed.ownerName}/${removed.name}`);
    await notice(cx, `Repository ${removed.ownerName}/${removed.name} was missing on disk and has been deleted`);
  }
  return {
    message: names.length ? `deleted ${names.length}: ${names.join(', ')}${stopped(run)}` : `no repository is missing${stopped(run)}`,
  };
}
