// The built-in SSH server's settings (Gitea `[server]` SSH_* and START_SSH_SERVER), and the SSH clone URL they compose.
import path from 'node:path';
import { parseBoolSetting, parseCount, parseDurationSetting, parsePort } from '../envValues.ts';

/** Config.ssh. */
export interface SshSettings {
  /** DISABLE_SSH: no SSH server at all (Gitea's API still composes `ssh_url`, and so does Forgegraph). */
  disabled: boolean;
  /** Whether `serve` starts the built-in server: START_SSH_SERVER, by default true when SSH_LISTEN_PORT is set; never when disabled. */
  startServer: boolean;
  /** SSH_LISTEN_HOST (default HOST). */
  listenHost: string;
  /** SSH_LISTEN_PORT (default SSH_PORT, else 22, as Gitea; 0 picks a free port). */
  listenPort: number;
  /** SSH_DOMAIN: the host of clone URLs (default ROOT_URL's host). */
  domain: string;
  /** SSH_PORT: the port of clone URLs (default: the built-in server's SSH_LISTEN_PORT, else 22). */
  port: number;
  /** SSH_USER: the user of clone URLs, and the only one the built-in server lets in (default `git`). */
  user: string;
  /** `<DATA_DIR>/ssh`: the host keys, generated on first start and kept. */
  hostKeyDir: string;
  /** SSH_HANDSHAKE_TIMEOUT: from the TCP connection to a signed-in client (default 30s). */
  handshakeTimeoutMs: number;
  /** SSH_IDLE_TIMEOUT: a connection that sends and receives nothing this long is closed (default 10m; 0 = never). */
  idleTimeoutMs: number;
  /** SSH_MAX_CONNECTIONS: open connections at most (default 256); more are closed at once. */
  maxConnections: number;
  /** SSH_MAX_CONNECTIONS_PER_IP: open connections from one client address at most (default 32; 0 = no limit). */
  maxConnectionsPerIp: number;
}

/** Reads the SSH settings; `host` and `rootUrl` are HOST's and ROOT_URL's values, the defaults of the listen host and the domain. */
export function loadSshSettings(env: NodeJS.ProcessEnv, base: { host: string; rootUrl: string; dataDir: string }): SshSettings {
  const disabled = parseBoolSetting('DISABLE_SSH', env.DISABLE_SSH, false);
  const listenPortSet = !!env.SSH_LISTEN_PORT?.trim();
  const shownPort = env.SSH_PORT?.trim() ? parsePort('SSH_PORT', env.SSH_PORT, 22) : null;
  const listenPort = parsePort('SSH_LISTEN_PORT', env.SSH_LISTEN_PORT, shownPort ?? 22);
  const startServer = !disabled && parseBoolSetting('START_SSH_SERVER', env.START_SSH_SERVER, listenPortSet);
  return {
    disabled,
    startServer,
    listenHost: env.SSH_LISTEN_HOST?.trim() || base.host,
    listenPort,
    domain: env.SSH_DOMAIN?.trim() || new URL(base.rootUrl).hostname,
    port: shownPort ?? (startServer && listenPort > 0 ? listenPort : 22),
    user: env.SSH_USER?.trim() || 'git',
    hostKeyDir: path.join(base.dataDir, 'ssh'),
    handshakeTimeoutMs: parseDurationSetting('SSH_HANDSHAKE_TIMEOUT', env.SSH_HANDSHAKE_TIMEOUT, '30s'),
    idleTimeoutMs: parseDurationSetting('SSH_IDLE_TIMEOUT', env.SSH_IDLE_TIMEOUT, '10m', 0),
    maxConnections: parseCount('SSH_MAX_CONNECTIONS', env.SSH_MAX_CONNECTIONS, 256, 1),
    maxConnectionsPerIp: parseCount('SSH_MAX_CONNECTIONS_PER_IP', env.SSH_MAX_CONNECTIONS_PER_IP, 32),
  };
}

/**
 * A repository's SSH clone URL (Gitea ComposeSSHCloneURL): `user@domain:owner/name.git` on port 22 (an IPv6
 * address in brackets), `ssh://user@domain:port/owner/name.git` on any other port.
 */
export function sshCloneUrl(ssh: Pick<SshSettings, 'user' | 'domain' | 'port'>, owner: string, name: string): string {
  const repoPath = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}.git`;
  const host = ssh.domain.includes(':') && !ssh.domain.startsWith('[') ? `[${ssh.domain}]` : ssh.domain;
  if (ssh.port !== 22) return `ssh://${ssh.user}@${host}:${ssh.port}/${repoPath}`;
  return `${ssh.user}@${host}:${repoPath}`;
}
