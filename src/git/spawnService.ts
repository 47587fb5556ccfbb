import { spawnGit, type GitProcess } from './run.ts';

/** The two smart-HTTP services. */
export type GitService = 'upload-pack' | 'receive-pack';

/** A started service: its three pipes are open. */
export type GitServiceProcess = GitProcess;

/** How to start a service process. */
export interface SpawnServiceOptions {
  /** `--advertise-refs` (GET info/refs) instead of the stateless RPC (POST). */
  advertise: boolean;
  /** The client's Git-Protocol header (already validated). */
  gitProtocol?: string;
  /** Shared hooks directory (core.hooksPath) for receive-pack. */
  hooksDir: string;
  /** Extra variables the hooks inherit (PUSH_LOG, PUSHER_ID …). */
  env?: Record<string, string>;
}

/**
 * Starts `git upload-pack|receive-pack --stateless-rpc [--advertise-refs] <gitDir>`; the caller pipes the
 * request body to stdin and stdout to the response (Gitea's serviceRPC, without the CGI layer).
 */
export function spawnService(service: GitService, gitDir: string, opts: SpawnServiceOptions): GitServiceProcess {
  const config =
    service === 'upload-pack'
      ? ['-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true']
      : ['-c', `core.hooksPath=${opts.hooksDir}`, '-c', 'receive.advertisePushOptions=true'];
  const args = [...config, service, '--stateless-rpc', ...(opts.advertise ? ['--advertise-refs'] : []), gitDir];
  return spawnGit(null, args, { ...(opts.gitProtocol ? { GIT_PROTOCOL: opts.gitProtocol } : {}), ...opts.env });
}
