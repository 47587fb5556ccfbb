import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Config } from '../../config.ts';
import { hooksDir, installHooks } from '../../git/installHooks.ts';
import { spawnService, type GitService, type GitServiceProcess, type ServiceMode } from '../../git/spawnService.ts';
import { serviceAnnouncement } from '../../git/pktLine.ts';
import { receivePackAdvertisement } from '../../git/receivePackAdvertisement.ts';
import { uploadPackV2Capabilities } from '../../git/v2Capabilities.ts';
import type { ServiceContext } from '../context.ts';
import type { GitRepoAccess } from './gitAccess.ts';
import { serveHookChannel } from './hookChannel.ts';
import { beginPush } from './pushJob.ts';

/** How a git service run ended, for the transport's log. */
export interface GitServiceExit {
  /** git's exit code; null when it was killed or never started. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The start of what git printed on stderr. */
  stderr: string;
  /** git could not be started. */
  startError?: Error;
  /** Recording the push failed (its job is retried by the workers). */
  recordError?: unknown;
}

/** A running service, and what follows its exit. */
export interface GitServiceRun {
  /** The caller pipes the client's bytes to stdin and stdout (and, over SSH, stderr) to the client. */
  child: GitServiceProcess;
  /**
   * Resolves once git exited and the ref updates a receive-pack applied are recorded (push service), so a client
   * that sees its push finish also sees its effects. Never rejects.
   */
  done(): Promise<GitServiceExit>;
}

/** What smart HTTP's GET info/refs writes before the service's advertisement. */
export { serviceAnnouncement };

/** Gitea's check of a client's protocol request: one or more key=value pairs separated by colons. */
const SAFE_GIT_PROTOCOL = /^[0-9a-zA-Z]+=[0-9a-zA-Z]+(:[0-9a-zA-Z]+=[0-9a-zA-Z]+)*$/;

/** The client's Git-Protocol header or GIT_PROTOCOL variable when it is well-formed (passed on to git), else undefined. */
export function acceptedGitProtocol(value: unknown): string | undefined {
  return typeof value === 'string' && SAFE_GIT_PROTOCOL.test(value) ? value : undefined;
}

/**
 * Writes the hooks receive-pack runs into the data directory (at startup; idempotent), and removes the push
 * logs (tmp/push-*.log) of earlier versions, which recorded pushes that way and cannot be replayed.
 */
export async function installGitHooks(config: Config): Promise<void> {
  await installHooks(config.dataDir, { customHooks: !config.disableGitHooks });
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
 * The body of GET info/refs for receive-pack, made without starting git (receivePackAdvertisement.ts), or null for
 * the caller to run git: protocol version 1 (git starts with its `version 1` line) or a repository git must
 * advertise itself. Version 2 is not spoken by receive-pack (git answers as version 0, without the service line).
 */
export async function receivePackRefs(cx: ServiceContext, access: GitRepoAccess, gitProtocol: string | undefined): Promise<Buffer | null> {
  if (gitProtocol?.split(':').includes('version=1')) return null;
  const format = access.target === 'wiki' ? 'sha1' : access.repo.objectFormatName;
  const refs = await receivePackAdvertisement(access.gitDir, format, hooksDir(cx.config.dataDir));
  return refs && Buffer.concat([serviceAnnouncement('receive-pack', gitProtocol), refs]);
}

/**
 * Starts the service for a client that requireGitAccess authorized (read access for upload-pack and
 * upload-archive, write access for receive-pack). For a push the hooks report over a channel: pre-receive has
 * the push job recorded before git moves any ref (so a crash after the update replays the bookkeeping), and asks
 * the branch protection gate; once receive-pack exited, `done` reads what was applied (post-receive reports it when
 * custom hooks are enabled) and runs the job.
 */
export function startGitService(
  cx: ServiceContext,
  access: GitRepoAccess,
  service: GitService,
  opts: { mode: ServiceMode; gitProtocol?: string | undefined },
): GitServiceRun {
  // The gate of a push: to the code, branch protection in pre-receive and the push job (feeds, webhooks, pull
  // requests, actions). To the wiki, neither: its hooks find no channel and pass (Gitea's wiki has no branch
  // protection, and its pushes make no push actions); the wiki unit's write access was the whole check.
  const push = service === 'receive-pack' && opts.mode !== 'advertise' && access.target === 'code' ? beginPush(cx, access.repo) : null;
  const child = spawnService(service, access.gitDir, {
    mode: opts.mode,
    gitProtocol: opts.gitProtocol,
    hooksDir: hooksDir(cx.config.dataDir),
    hookChannel: push !== null,
    // The push job's upkeep job runs `git gc --auto` after the answer (upkeepJob.ts).
    noAutoGc: push !== null,
    // The shared hooks run the repository's own scripts only when told to (installHooks.ts).
    ...(push && !cx.config.disableGitHooks ? { env: { FORGEGRAPH_GIT_HOOKS: '1' } } : {}),
  });
  if (push) {
    serveHookChannel(child.stdio[3] as Duplex, {
      preReceive: (lines) => push.intend(lines),
      postReceive: (lines) => push.applied(lines),
    });
  }
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString('utf8');
  });
  const exited = new Promise<GitServiceExit>((resolve) => {
    child.on('error', (err) => resolve({ code: null, signal: null, stderr, startError: err }));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
  const done = async (): Promise<GitServiceExit> => {
    const exit = await exited;
    if (!push) return exit;
    // Test hook: die between the ref update and its bookkeeping (the job must be replayed after a restart).
    if (cx.config.testCrashAfterRefUpdate && (await push.hasApplied())) process.kill(process.pid, 'SIGKILL');
    try {
      await push.finish();
      return exit;
    } catch (err) {
      return { ...exit, recordError: err };
    }
  };
  return { child, done };
}
