// One SSH session channel of a signed-in client: GIT_PROTOCOL through `env`, the shell greeting, and the git
// commands (through the same service path as smart HTTP); everything else a session may ask for is refused.
import type { ServerChannel, Session } from 'ssh2';
import { markSshKeyUsed } from '../auth/sshKey.ts';
import type { AppDeps } from '../services/context.ts';
import * as gitTransport from '../services/repo/gitTransport.ts';
import { parseSshCommand } from './command.ts';
import { authorizeCommand, shellGreeting, type SshIdentity } from './serv.ts';

/** The logger the server writes to (pino's, through the app). */
export interface SshLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What a session needs from its connection. */
export interface SessionContext {
  deps: AppDeps;
  log: SshLogger;
  identity: SshIdentity;
  ip: string;
  /** Runs `work` as a command of the connection (a graceful stop waits for it); false when the server is stopping. */
  command(work: () => Promise<void>): boolean;
}

/** Ends a channel with text on stderr and an exit status. */
function finish(channel: ServerChannel, status: number, text?: string): void {
  if (text) channel.stderr.write(`${text}\n`);
  channel.exit(status);
  channel.end();
}

/** Runs a git command for the client, or refuses it with Gitea's `serv` line (`<App>: <message>`, exit 1). */
async function runCommand(s: SessionContext, channel: ServerChannel, command: string, gitProtocol: string | undefined): Promise<void> {
  const refuse = (message: string) => finish(channel, 1, `${s.deps.config.appName}: ${message}`);
  const parsed = parseSshCommand(command);
  if (!parsed.ok) return refuse(parsed.message);
  const decision = await authorizeCommand(s.deps, s.identity, parsed);
  const subject = { keyId: s.identity.key.id, user: s.identity.user?.name ?? null, ip: s.ip, service: parsed.service };
  if (!decision.ok) {
    s.log.info({ ...subject, repo: `${parsed.owner}/${parsed.name}`, refused: decision.message }, 'ssh: git command refused');
    return refuse(decision.message);
  }
  const { repo } = decision.access;
  const started = performance.now();
  const run = gitTransport.startGitService(decision.cx, decision.access, parsed.service, { mode: 'session', gitProtocol });
  const { child } = run;
  child.stdin.on('error', () => undefined);
  channel.pipe(child.stdin);
  child.stdout.pipe(channel, { end: false });
  child.stderr.pipe(channel.stderr, { end: false });
  // The client went away: nothing more to serve.
  channel.on('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  });
  const exit = await run.done();
  const fields = { ...subject, repo: `${repo.ownerName}/${repo.name}`, code: exit.code, ms: Math.round(performance.now() - started) };
  if (exit.startError) s.log.error({ ...fields, err: exit.startError }, 'ssh: git failed to start');
  else if (exit.code !== 0 && !exit.signal) s.log.warn({ ...fields, stderr: exit.stderr }, 'ssh: git command failed');
  else s.log.info(fields, 'ssh: git command');
  if (exit.recordError) s.log.error({ ...fields, err: exit.recordError }, 'recording a push failed');
  finish(channel, exit.code ?? 1);
  if (exit.code === 0) await markSshKeyUsed(s.deps.db, s.identity.key, repo.id).catch(() => undefined);
}

/** Answers a shell request (or an empty command) with Gitea's greeting. */
async function greet(s: SessionContext, channel: ServerChannel): Promise<void> {
  const { ok, text } = await shellGreeting(s.deps, s.identity);
  finish(channel, ok ? 0 : 1, ok ? text : `${s.deps.config.appName}: ${text}`);
}

/**
 * Serves one session: `env` GIT_PROTOCOL (validated like the HTTP header) is passed to git, other variables are
 * refused; `shell` greets; `exec` runs one of the three git commands. Terminals, X11, agent forwarding and
 * subsystems (sftp included) are refused.
 */
export function serveSession(s: SessionContext, session: Session): void {
  let gitProtocol: string | undefined;
  session.on('env', (accept, reject, info) => {
    const value = info.key === 'GIT_PROTOCOL' ? gitTransport.acceptedGitProtocol(info.val) : undefined;
    if (value === undefined) return reject?.();
    gitProtocol = value;
    accept?.();
  });
  for (const refused of ['pty', 'x11', 'auth-agent', 'subsystem', 'sftp', 'signal'] as const) {
    session.on(refused, (_accept: unknown, reject?: () => void) => reject?.());
  }
  const start = (accept: () => ServerChannel, reject: (() => void) | undefined, work: (channel: ServerChannel) => Promise<void>) => {
    const admitted = s.command(async () => {
      const channel = accept();
      // The command ends when the client has the exit status and closed the channel (a stopping server then
      // disconnects it).
      const closed = new Promise<void>((resolve) => channel.once('close', resolve));
      await work(channel).catch((err: unknown) => {
        s.log.error({ err, keyId: s.identity.key.id, ip: s.ip }, 'ssh: session failed');
        finish(channel, 1, `${s.deps.config.appName}: Internal Server Error`);
      });
      await closed;
    });
    if (!admitted) reject?.();
  };
  session.on('shell', (accept, reject) => start(accept, reject, (channel) => greet(s, channel)));
  session.on('exec', (accept, reject, info) =>
    start(accept, reject, (channel) => (info.command.trim() ? runCommand(s, channel, info.command, gitProtocol) : greet(s, channel))),
  );
}
