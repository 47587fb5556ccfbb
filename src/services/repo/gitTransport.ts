import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config.ts';
import { hooksDir, installHooks } from '../../git/installHooks.ts';
import { spawnService, type GitService, type GitServiceProcess } from '../../git/spawnService.ts';
import { uploadPackV2Capabilities } from '../../git/v2Capabilities.ts';
import type { ServiceContext } from '../context.ts';
import type { GitRepoAccess } from './gitAccess.ts';
import { parsePushLog, recordPush } from './push.ts';

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

/** Writes the hooks receive-pack runs into the data directory (at startup; idempotent). */
export function installGitHooks(config: Config): Promise<void> {
  return installHooks(config.dataDir);
}

/** upload-pack's protocol-v2 capability advertisement (GET info/refs with `Git-Protocol: version=2`). */
export function uploadPackCapabilities(cx: ServiceContext, access: GitRepoAccess): Promise<Buffer> {
  return uploadPackV2Capabilities(access.gitDir, access.repo.objectFormatName, hooksDir(cx.config.dataDir));
}

/**
 * Starts the service for a client that requireGitAccess authorized. For a push, the post-receive hook writes
 * the applied updates to a per-request file that `finish` reads.
 */
export async function startGitService(
  cx: ServiceContext,
  access: GitRepoAccess,
  service: GitService,
  opts: { advertise: boolean; gitProtocol?: string },
): Promise<GitServiceRun> {
  const dataDir = cx.config.dataDir;
  let pushLog: string | null = null;
  if (service === 'receive-pack' && !opts.advertise) {
    await mkdir(path.join(dataDir, 'tmp'), { recursive: true });
    pushLog = path.join(dataDir, 'tmp', `push-${randomBytes(8).toString('hex')}.log`);
  }
  const child = spawnService(service, access.gitDir, {
    advertise: opts.advertise,
    gitProtocol: opts.gitProtocol,
    hooksDir: hooksDir(dataDir),
    env: pushLog ? { PUSH_LOG: pushLog, PUSHER_ID: String(cx.viewer?.id ?? 0), REPO_ID: String(access.repo.id) } : {},
  });
  const finish = async (): Promise<void> => {
    if (!pushLog) return;
    const text = await readFile(pushLog, 'utf8').catch(() => '');
    await rm(pushLog, { force: true });
    await recordPush(cx, access.repo, parsePushLog(text));
  };
  return { child, finish };
}
