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
  /** Extra variables the hooks inherit. */
  env?: Record<string, string>;
  /**
   * Open a channel to the hooks: a socket at fd 3 of git, inherited by the hooks it runs (FORGEGRAPH_HOOK_CHANNEL
   * tells them), available as `child.stdio[3]`.
   */
  hookChannel?: boolean;
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
  const env = {
    ...(opts.gitProtocol ? { GIT_PROTOCOL: opts.gitProtocol } : {}),
    ...(opts.hookChannel ? { FORGEGRAPH_HOOK_CHANNEL: '3' } : {}),
    ...opts.env,
  };
  return spawnGit(null, args, env, { channel: opts.hookChannel === true });
}
