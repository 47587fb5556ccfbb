import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GitService } from '../git/spawnService.ts';
import type { ServiceContext } from '../services/context.ts';
import type { GitRepoAccess } from '../services/repo/gitAccess.ts';
import * as gitTransport from '../services/repo/gitTransport.ts';

/** The POST endpoints. */
export type GitAction = GitService;

/** What serveGit needs once the request is authorized. */
export interface ServeGitInput {
  cx: ServiceContext;
  access: GitRepoAccess;
  service: GitService;
  /** GET info/refs. */
  advertise: boolean;
  noCache: Record<string, string>;
}

/** Gitea's check: one or more key=value pairs separated by colons. */
const SAFE_GIT_PROTOCOL = /^[0-9a-zA-Z]+=[0-9a-zA-Z]+(:[0-9a-zA-Z]+=[0-9a-zA-Z]+)*$/;

function pktLine(s: string): Buffer {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);
}

/**
 * Runs the service for an authorized request and streams both ways: the (gunzipped) body into git's stdin,
 * git's stdout into the response. The child is killed if the client goes away. For receive-pack, the hooks
 * report over a channel: pre-receive has the push job recorded before git moves any ref (so a crash after the
 * update replays the bookkeeping), post-receive reports what was applied, and the job runs before the
 * response ends, so a client that sees its push finish also sees its effects.
 */
export async function serveGit(req: FastifyRequest, reply: FastifyReply, input: ServeGitInput): Promise<void> {
  const { cx, access, service, advertise } = input;
  const header = req.headers['git-protocol'];
  const gitProtocol = typeof header === 'string' && SAFE_GIT_PROTOCOL.test(header) ? header : undefined;
  if (advertise && service === 'upload-pack' && gitProtocol?.split(':').includes('version=2')) {
    const caps = await gitTransport.uploadPackCapabilities(cx, access);
    reply
      .code(200)
      .headers({ ...input.noCache, 'Content-Type': 'application/x-git-upload-pack-advertisement' })
      .send(caps);
    return;
  }

  const { child, finish } = gitTransport.startGitService(cx, access, service, { advertise, gitProtocol });
  reply.hijack();
  const res = reply.raw;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 4096) stderr += d;
  });

  res.writeHead(200, { ...input.noCache, 'Content-Type': `application/x-git-${service}-${advertise ? 'advertisement' : 'result'}` });
  if (advertise) {
    if (!gitProtocol?.includes('version=2')) res.write(Buffer.concat([pktLine(`# service=git-${service}\n`), Buffer.from('0000')]));
    child.stdin.end();
  } else {
    const body: Readable = req.headers['content-encoding'] === 'gzip' ? req.raw.pipe(createGunzip()) : req.raw;
    body.on('error', () => child.kill());
    child.stdin.on('error', () => undefined);
    body.pipe(child.stdin);
  }
  child.stdout.pipe(res, { end: false });
  res.on('close', () => {
    if (!res.writableFinished && child.exitCode === null) child.kill();
  });

  await new Promise<void>((resolve) => {
    child.on('error', (err) => {
      req.log.error({ err }, 'git service failed to start');
      resolve();
    });
    child.on('close', (code, signal) => {
      if (code !== 0 && !signal) req.log.warn({ service, code, stderr }, 'git service failed');
      resolve();
    });
  });

  try {
    await finish();
  } catch (err) {
    req.log.error({ err }, 'recording a push failed');
  }
  res.end();
}
