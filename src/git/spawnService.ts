import { spawnGit, type GitProcess } from './run.ts';

/** The git services clients run: smart HTTP's two, and upload-archive (`git archive --remote`) over SSH. */
export type GitService = 'upload-pack' | 'receive-pack' | 'upload-archive';

/** A started service: its three pipes are open. */
export type GitServiceProcess = GitProcess;

/**
 * How a service talks to its client: `advertise` (smart HTTP's GET info/refs), `stateless` (one POST of smart
 * HTTP), or `session`: one conversation over a bidirectional stream, advertisement included (SSH).
 */
export type ServiceMode = 'advertise' | 'stateless' | 'session';

/** How to start a service process. */
export interface SpawnServiceOptions {
  mode: ServiceMode;
  /** The client's protocol request (Git-Protocol header or GIT_PROTOCOL variable), already validated. */
  gitProtocol?: string | undefined;
  /** Shared hooks directory (core.hooksPath) for receive-pack. */
  hooksDir: string;
  /** Extra variables the hooks inherit. */
  env?: Record<string, string>;
  /**
   * Open a channel to the hooks: a socket at fd 3 of git, inherited by the hooks it runs (FORGEGRAPH_HOOK_CHANNEL
   * tells them), available as `child.stdio[3]`.
   */
  hookChannel?: boolean;
  /** receive-pack: no `git gc --auto` after the push (the caller runs it later, off the push's answer path). */
  noAutoGc?: boolean;
}

/** Settings each service runs with. */
const SERVICE_CONFIG: Record<GitService, (hooksDir: string) => string[]> = {
  'upload-pack': () => ['-c', 'uploadpack.allowFilter=true', '-c', 'uploadpack.allowAnySHA1InWant=true'],
  'receive-pack': (hooksDir) => ['-c', `core.hooksPath=${hooksDir}`, '-c', 'receive.advertisePushOptions=true'],
  'upload-archive': () => [],
};

/**
 * Starts `git upload-pack|receive-pack [--stateless-rpc [--advertise-refs]] <gitDir>` (or `git upload-archive
 * <gitDir>`, session mode only); the caller pipes the client's bytes to stdin and stdout back to the client
 * (Gitea's serviceRPC without the CGI layer, and its `serv` command for SSH).
 */
export function spawnService(service: GitService, gitDir: string, opts: SpawnServiceOptions): GitServiceProcess {
  const modeArgs = opts.mode === 'session' ? [] : ['--stateless-rpc', ...(opts.mode === 'advertise' ? ['--advertise-refs'] : [])];
  const args = [
    ...SERVICE_CONFIG[service](opts.hooksDir),
    ...(opts.noAutoGc ? ['-c', 'receive.autogc=false'] : []),
    service,
    ...modeArgs,
    gitDir,
  ];
  const env = {
    ...(opts.gitProtocol ? { GIT_PROTOCOL: opts.gitProtocol } : {}),
    ...(opts.hookChannel ? { FORGEGRAPH_HOOK_CHANNEL: '3' } : {}),
    ...opts.env,
  };
  return spawnGit(null, args, env, { channel: opts.hookChannel === true });
}
