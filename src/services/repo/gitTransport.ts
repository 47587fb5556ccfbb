import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Config } from '../../config.ts';
import { hooksDir, installHooks } from '../../git/installHooks.ts';
import { spawnService, type GitService, type GitServiceProcess } from '../../git/spawnService.ts';
import { uploadPackV2Capabilities } from '../../git/v2Capabilities.ts';
import type { ServiceContext } from '../context.ts';
import type { GitRepoAccess } from './gitAccess.ts';
import { serveHookChannel } from './hookChannel.ts';
import { beginPush } from './pushJob.ts';

/** A running upload-pack or receive-pack, and what follows its exit. */
export interface GitServiceRun {
  /** The caller pipes the request body to stdin and stdout to the client. */
  child: GitServiceProcess;
  /**
   * After the process exited: records the ref updates a receive-pack applied (push service), so a client that
   * sees its push finish also sees its effects. Nothing to do for upload-pack or an advertisement.
   */
  finish(): Promise<void>;
}

/**
 * Writes the hooks receive-pack runs into the data directory (at startup; idempotent), and removes the push
 * logs (tmp/push-*.log) of earlier versions, which recorded pushes that way and cannot be replayed.
 */
export async function installGitHooks(config: Config): Promise<void> {
  await installHooks(config.dataDir);
  const tmp = path.join(config.dataDir, 'tmp');
  const leftovers = (await readdir(tmp).catch(() => [])).filter((f) => /^push-[0-9a-f]+\.log$/.test(f));
  await Promise.all(leftovers.map((f) => rm(path.join(tmp, f), { force: true })));
}

/** upload-pack's protocol-v2 capability advertisement (GET info/refs with `Git-Protocol: version=2`). */
export function uploadPackCapabilities(cx: ServiceContext, access: GitRepoAccess): Promise<Buffer> {
  // A wiki's repository is SHA-1 whatever the code's format (services/wiki/wikiRepo.ts initWiki).
  const format = access.target === 'wiki' ? 'sha1' : access.repo.objectFormatName;
  return uploadPackV2Capabilities(access.gitDir, format, hooksDir(cx.config.dataDir));
}

/**
 * Starts the service for a client that requireGitAccess authorized. For a push the hooks report over a channel:
 * pre-receive has the push job recorded before git moves any ref (so a crash after the update replays the
 * bookkeeping), post-receive reports what was applied, and `finish` runs the job.
 */
export function startGitService(
  cx: ServiceContext,
  access: GitRepoAccess,
  service: GitService,
  opts: { advertise: boolean; gitProtocol?: string },
): GitServiceRun {
  // The gate of a push: to the code, branch protection in pre-receive and the push job (feeds, webhooks, pull
  // requests, actions). To the wiki, neither: its hooks find no channel and pass (Gitea's wiki has no branch
  // protection, and its pushes make no push actions); the wiki unit's write access was the whole check.
  const push = service === 'receive-pack' && !opts.advertise && access.target === 'code' ? beginPush(cx, access.repo) : null;
  const child = spawnService(service, access.gitDir, {
    advertise: opts.advertise,
    gitProtocol: opts.gitProtocol,
    hooksDir: hooksDir(cx.config.dataDir),
    hookChannel: push !== null,
  });
  if (push) {
    serveHookChannel(child.stdio[3] as Duplex, {
      preReceive: (lines) => push.intend(lines),
      postReceive: (lines) => push.applied(lines),
    });
  }
  const finish = async (): Promise<void> => {
    if (!push) return;
    // Test hook: die between the ref update and its bookkeeping (the job must be replayed after a restart).
    if (cx.config.testCrashAfterRefUpdate && push.hasApplied) process.kill(process.pid, 'SIGKILL');
    await push.finish();
  };
  return { child, finish };
}
