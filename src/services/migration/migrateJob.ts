import { z } from 'zod';
import { GitCommandError } from '../../git/run.ts';
import {
  diffRefs,
  readBranchAndTagRefs,
  remoteAnswers,
  remoteHeadBranch,
  removeMirrorRemote,
  setMirrorRemote,
} from '../../git/remoteMirror.ts';
import { initRepository } from '../../git/initRepository.ts';
import { hooksDir } from '../../git/installHooks.ts';
import { repoPath, wikiPath } from '../../git/repoPath.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import type { RemoteOptions } from '../../git/remoteMirror.ts';
import { createSystemContext, withTx, type AppDeps, type ServiceContext } from '../context.ts';
import { releaseTagSyncFollowUp } from '../release/tagSync.ts';
import { removeRepository } from '../repo/delete.ts';
import { fetchMirrorRefs, setDefaultHead } from '../repo/moveRefs.ts';
import { recordPushRows } from '../repo/push.ts';
import { gitAuthorization, openCredentials, redact, type RemoteCredentials } from './credentials.ts';
import { checkCloneAddress } from './address.ts';
import { downloaderOf, migrateItems } from './items.ts';
import type { Models } from '../../db/client.ts';

/** The sources Forgegraph migrates from: any git remote, and the issues and more of Gitea, Gogs and GitHub. */
export type MigrationService = 'git' | 'gitea' | 'gogs' | 'github';

const MigratePayload = z.object({
  ownerId: z.number().int(),
  name: z.string(),
  /** Set once the placeholder repository exists; -1 when creating it failed (nothing to do). */
  repoId: z.number().int().optional(),
  doerId: z.number().int(),
  /** The source without credentials: a URL or a local path. */
  cloneUrl: z.string(),
  /** Sealed RemoteCredentials ("" = none). */
  credentials: z.string(),
  service: z.enum(['git', 'gitea', 'gogs', 'github']),
  mirror: z.boolean(),
  items: z.object({
    wiki: z.boolean(),
    milestones: z.boolean(),
    labels: z.boolean(),
    issues: z.boolean(),
    pullRequests: z.boolean(),
    releases: z.boolean(),
  }),
  /** Outcome: why the migration failed (what was made is removed). */
  failure: z.string().optional(),
});
/** The migration job's payload. */
export type MigratePayload = z.infer<typeof MigratePayload>;

/** A migration: the git data, then the items of the source's API, then the repository is ready. One attempt. */
export const MIGRATE_JOB = jobKind('repo.migrate', MigratePayload, { maxAttempts: 1 });

/** How long the first fetch of a migration may take (Gitea `[git.timeout] MIGRATE`, 600 s). */
const MIGRATE_TIMEOUT_MS = 600_000;

/** Gitea's messages for a failed import (handleMigrateError): authentication, git's fatal errors, the rest. */
function failureMessage(err: unknown, credentials: RemoteCredentials): string {
  const text = redact(err instanceof GitCommandError ? err.stderr.trim() : err instanceof Error ? err.message : String(err), credentials);
  if (/Authentication failed|could not read Username|401|403 Forbidden|terminal prompts disabled/i.test(text)) {
    return `Authentication failed: ${text}.`;
  }
  return `Migration failed: ${text}.`;
}

/** The git half: the source's refs fetched as `git clone --mirror` does, HEAD as the source's, branch rows. */
async function migrateGitData(
  cx: ServiceContext,
  repo: Models.Repository,
  p: MigratePayload,
  credentials: RemoteCredentials,
): Promise<void> {
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const opts = { authorization: gitAuthorization(credentials), timeoutMs: MIGRATE_TIMEOUT_MS };
  await setMirrorRemote(gitDir, p.cloneUrl);
  await fetchMirrorRefs(cx, repo, 'code', true, opts);
  const head = await remoteHeadBranch(gitDir, opts);
  if (!p.mirror) await removeMirrorRemote(gitDir);
  const refs = await readBranchAndTagRefs(gitDir);
  let defaultBranch = repo.defaultBranch;
  if (head && refs[`refs/heads/${head}`]) defaultBranch = head;
  else
    defaultBranch =
      Object.keys(refs)
        .find((r) => r.startsWith('refs/heads/'))
        ?.slice('refs/heads/'.length) ?? defaultBranch;
  await setDefaultHead(gitDir, defaultBranch);
  const current = await cx.db.repository.update({ where: { id: repo.id }, data: { defaultBranch } });
  await recordPushRows(cx, current, null, diffRefs({}, refs));
  if (p.items.wiki) await migrateWiki(cx, current, p, opts);
}

/**
 * The wiki (Gitea WikiRemoteURL): the first of `<source>.wiki.git` and `<source>.git/wiki` that answers is
 * fetched into `<name>.wiki.git`; a source without a wiki is not an error.
 */
async function migrateWiki(cx: ServiceContext, repo: Models.Repository, p: MigratePayload, opts: RemoteOptions): Promise<void> {
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const base = p.cloneUrl.replace(/\/+$/, '').replace(/\.git$/, '');
  for (const url of [`${base}.wiki.git`, `${base}.git/wiki`]) {
    if (!(await remoteAnswers(gitDir, url, opts))) continue;
    const wikiDir = wikiPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
    await initRepository({ gitdir: wikiDir, defaultBranch: 'master', objectFormat: 'sha1', hooksDir: hooksDir(cx.config.dataDir) });
    await setMirrorRemote(wikiDir, url);
    await fetchMirrorRefs(cx, repo, 'wiki', true, opts);
    const head = await remoteHeadBranch(wikiDir, opts);
    if (head) await setDefaultHead(wikiDir, head);
    if (!p.mirror) await removeMirrorRemote(wikiDir);
    return;
  }
}

/**
 * The migration job's handler: fetches the git data, migrates the items the source's API offers (labels,
 * milestones, releases, issues, pull requests with their comments, reactions and reviews), syncs releases with
 * tags and makes the repository ready. Any failure removes the repository and records why (the request that
 * holds the job reports it). A migration interrupted by a crash is removed the same way.
 */
export function migrateJobHandler(deps: AppDeps): JobHandler<MigratePayload> {
  return defineHandler(MIGRATE_JOB, async (payload, run) => {
    if (payload.repoId === -1 || payload.failure) return;
    const cx = createSystemContext(deps);
    const repo =
      payload.repoId !== undefined
        ? await deps.db.repository.findUnique({ where: { id: payload.repoId } })
        : await deps.db.repository.findFirst({ where: { ownerId: payload.ownerId, lowerName: payload.name.toLowerCase() } });
    if (!repo || repo.status !== 'BEING_MIGRATED') return;
    const credentials = openCredentials(deps.config.secretKey, payload.credentials);
    try {
      if (run.attempt > 1) throw new Error('the migration was interrupted (the server stopped)');
      const doer = await deps.db.user.findUnique({ where: { id: payload.doerId } });
      if (!doer) throw new Error('the migrating user no longer exists');
      // The address policy at connect time: a host that did not resolve when the request was checked may now.
      await checkCloneAddress(deps.config.migrations, doer, payload.cloneUrl);
      const source = downloaderOf(payload, credentials);
      // Gitea clones the source's own clone_url, checked again (and never a switch to a local path).
      const cloneUrl = source ? await source.cloneUrl() : payload.cloneUrl;
      if (source && (await checkCloneAddress(deps.config.migrations, doer, cloneUrl)).kind !== 'remote') {
        throw new Error('the source named a local clone address');
      }
      await migrateGitData(cx, repo, { ...payload, cloneUrl }, credentials);
      await migrateItems(cx, repo, doer, payload, source);
      const tags = diffRefs({}, await readBranchAndTagRefs(repoPath(deps.config.repositoriesDir, repo.ownerName, repo.name))).filter((u) =>
        u.ref.startsWith('refs/tags/'),
      );
      if (tags.length) await releaseTagSyncFollowUp(cx, { repoId: repo.id, repo, pusherId: doer.id, pusher: doer, updates: tags });
      await withTx(cx, async (tx) => {
        const now = new Date();
        await tx.repository.update({ where: { id: repo.id }, data: { status: 'READY', updatedAt: now } });
        if (payload.mirror)
          await tx.mirror.updateMany({ where: { repoId: repo.id }, data: { updatedAt: now, lastSyncAt: now, remoteAddress: cloneUrl } });
        await run.checkpoint(tx, { ...payload, repoId: repo.id });
      });
    } catch (err) {
      const failure = failureMessage(err, credentials);
      await removeRepository(cx, repo, null);
      await withTx(cx, (tx) => run.checkpoint(tx, { ...payload, repoId: repo.id, failure }));
    }
  });
}
