// The built-in SSH server (Gitea's START_SSH_SERVER): public-key sign-in for user keys and deploy keys, git's
// three commands, nothing else. It keeps no state beyond its connections (host keys live in the data directory),
// so any number of instances can serve the same data.
import { createServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import ssh2, { type AuthContext, type Connection } from 'ssh2';
import { findSshKey } from '../auth/sshKey.ts';
import type { AppDeps } from '../services/context.ts';
import type { HostKey } from './hostKeys.ts';
import type { SshIdentity } from './serv.ts';
import { serveSession, type SshLogger } from './session.ts';
import type { SshSettings } from './settings.ts';

/** Failed sign-in attempts one connection may make (OpenSSH MaxAuthTries). */
const MAX_AUTH_TRIES = 6;

/** One client connection. */
interface Conn {
  socket: Socket;
  ip: string;
  client: Connection | null;
  identity: SshIdentity | null;
  /** Commands (and shell greetings) running. */
  running: number;
  failures: number;
  timer: NodeJS.Timeout | null;
}

/** The SSH server of one process: `listen`, then `close` to drain. */
export class SshServer {
  private readonly tcp: TcpServer;
  private readonly ssh: ssh2.Server;
  private readonly conns = new Set<Conn>();
  /** Accepted sockets waiting for their client's SSH identification, by remote address and port. */
  private readonly pending = new Map<string, Conn>();
  private readonly perIp = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly settings: SshSettings,
    hostKeys: readonly HostKey[],
    private readonly log: SshLogger,
  ) {
    this.ssh = new ssh2.Server({ hostKeys: hostKeys.map((k) => k.privateKey), ident: deps.config.appName });
    this.ssh.on('connection', (client, info) => this.adopt(client, `${info.ip}|${info.port}`));
    this.tcp = createServer((socket) => this.accept(socket));
  }

  /** Starts listening on SSH_LISTEN_HOST:SSH_LISTEN_PORT; resolves with the address. */
  listen(): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.tcp.once('error', reject);
      this.tcp.listen(this.settings.listenPort, this.settings.listenHost, () => {
        this.tcp.off('error', reject);
        this.tcp.on('error', (err) => this.log.error({ err }, 'ssh: listener failed'));
        resolve(this.tcp.address() as AddressInfo);
      });
    });
  }

  /**
   * Graceful stop: no new connections or commands; connections with nothing running close now, the others once
   * their commands finished. Resolves when every connection is closed.
   */
  close(): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => this.tcp.close(() => resolve()));
    for (const conn of this.conns) if (conn.running === 0) this.end(conn);
    return closed;
  }

  private accept(socket: Socket): void {
    const ip = socket.remoteAddress ?? '';
    const fromIp = this.perIp.get(ip) ?? 0;
    const { maxConnections, maxConnectionsPerIp } = this.settings;
    if (this.closing || this.conns.size >= maxConnections || (maxConnectionsPerIp > 0 && fromIp >= maxConnectionsPerIp)) {
      this.log.warn({ ip, open: this.conns.size, fromIp }, 'ssh: connection refused (limit reached)');
      socket.destroy();
      return;
    }
    const conn: Conn = { socket, ip, client: null, identity: null, running: 0, failures: 0, timer: null };
    this.conns.add(conn);
    this.perIp.set(ip, fromIp + 1);
    const key = `${ip}|${socket.remotePort}`;
    this.pending.set(key, conn);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      if (conn.timer) clearTimeout(conn.timer);
      this.pending.delete(key);
      this.conns.delete(conn);
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    });
    // Until it has signed in, a client has SSH_HANDSHAKE_TIMEOUT.
    conn.timer = setTimeout(() => {
      this.log.info({ ip }, 'ssh: handshake timed out');
      socket.destroy();
    }, this.settings.handshakeTimeoutMs);
    this.ssh.injectSocket(socket);
  }

  /** The client of an accepted socket identified itself: authentication, then sessions. */
  private adopt(client: Connection, key: string): void {
    const conn = this.pending.get(key);
    this.pending.delete(key);
    if (!conn) {
      client.end();
      return;
    }
    conn.client = client;
    client.on('error', (err) => this.log.debug({ ip: conn.ip, err: err.message }, 'ssh: connection error'));
    client.on('authentication', (ctx) => void this.authenticate(conn, ctx));
    client.on('ready', () => {
      this.idle(conn);
      client.on('session', (accept, reject) => {
        const identity = conn.identity;
        if (!identity) return reject();
        serveSession({ deps: this.deps, log: this.log, identity, ip: conn.ip, command: (work) => this.command(conn, work) }, accept());
      });
      // Port forwarding (both directions) and unix-socket forwarding are refused.
      client.on('tcpip', (_accept, reject) => reject());
      client.on('openssh.streamlocal', (_accept, reject) => reject());
      client.on('request', (_accept, reject) => reject?.());
    });
  }

  /** Public keys only: a user's key or a deploy key, with a valid signature, for SSH_USER. */
  private async authenticate(conn: Conn, ctx: AuthContext): Promise<void> {
    const refuse = () => {
      // `none` is how clients ask which methods there are; anything else is a failed attempt.
      if (ctx.method !== 'none') this.log.info({ ip: conn.ip, user: ctx.username, method: ctx.method }, 'ssh: sign-in refused');
      if (ctx.method !== 'none' && ++conn.failures >= MAX_AUTH_TRIES) {
        this.log.info({ ip: conn.ip }, 'ssh: too many failed sign-in attempts');
        conn.client?.end();
        return;
      }
      ctx.reject(['publickey']);
    };
    if (ctx.method !== 'publickey' || ctx.username !== this.settings.user) return refuse();
    try {
      const found = await findSshKey(this.deps.db, ctx.key.data);
      if (!found) return refuse();
      // Without a signature the client only asks whether the key would do; it signs next.
      if (!ctx.signature || !ctx.blob) return ctx.accept();
      const key = ssh2.utils.parseKey(found.content);
      if (key instanceof Error || !key.verify(ctx.blob, ctx.signature, ctx.hashAlgo)) return refuse();
      conn.identity = { key: found.key, user: found.user };
      this.log.debug({ ip: conn.ip, keyId: found.key.id, user: found.user?.name ?? null }, 'ssh: signed in');
      ctx.accept();
    } catch (err) {
      this.log.error({ ip: conn.ip, err }, 'ssh: sign-in failed');
      ctx.reject(['publickey']);
    }
  }

  /** Runs a command of the connection unless the server is stopping; the idle timer waits meanwhile. */
  private command(conn: Conn, work: () => Promise<void>): boolean {
    if (this.closing) return false;
    conn.running++;
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = null;
    void work().finally(() => {
      conn.running--;
      if (conn.running > 0) return;
      if (this.closing) this.end(conn);
      else this.idle(conn);
    });
    return true;
  }

  /** A signed-in connection that runs nothing for SSH_IDLE_TIMEOUT is closed. */
  private idle(conn: Conn): void {
    if (conn.timer) clearTimeout(conn.timer);
    conn.timer = null;
    const ms = this.settings.idleTimeoutMs;
    if (ms > 0) conn.timer = setTimeout(() => this.end(conn), ms);
  }

  private end(conn: Conn): void {
    if (conn.client) conn.client.end();
    else conn.socket.destroy();
    // A client that does not answer the disconnect is cut off.
    setTimeout(() => conn.socket.destroy(), 2000).unref();
  }
}
