import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../services/context.ts';
import type { GitRepoAccess } from '../services/repo/gitAccess.ts';
import * as gitTransport from '../services/repo/gitTransport.ts';

/** The POST endpoints: the services smart HTTP serves. */
export type GitAction = 'upload-pack' | 'receive-pack';

/** What serveGit needs once the request is authorized. */
export interface ServeGitInput {
  cx: ServiceContext;
  access: GitRepoAccess;
  service: GitAction;
  /** GET info/refs. */
  advertise: boolean;
  noCache: Record<string, string>;
}

/**
 * Runs the service for an authorized request and streams both ways: the (gunzipped) body into git's stdin,
 * git's stdout into the response. The child is killed if the client goes away. For receive-pack, the hooks
 * report over a channel: pre-receive has the push job recorded before git moves any ref (so a crash after the
 * update replays the bookkeeping), what git applied is read once it exited, and the job runs before the
 * response ends, so a client that sees its push finish also sees its effects.
 */
export async function serveGit(req: FastifyRequest, reply: FastifyReply, input: ServeGitInput): Promise<void> {
  const { cx, access, service, advertise } = input;
  const gitProtocol = gitTransport.acceptedGitProtocol(req.headers['git-protocol']);
  if (advertise && service === 'upload-pack' && gitProtocol?.split(':').includes('version=2')) {
    const caps = await gitTransport.uploadPackCapabilities(cx, access);
    reply
      .code(200)
      .headers({ ...input.noCache, 'Content-Type': 'application/x-git-upload-pack-advertisement' })
      .send(caps);
    return;
  }

  if (advertise && service === 'receive-pack') {
    const refs = await gitTransport.receivePackRefs(cx, access, gitProtocol);
    if (refs) {
      reply
        .code(200)
        .headers({ ...input.noCache, 'Content-Type': 'application/x-git-receive-pack-advertisement' })
        .send(refs);
      return;
    }
  }

  const run = gitTransport.startGitService(cx, access, service, { mode: advertise ? 'advertise' : 'stateless', gitProtocol });
  const { child } = run;
  reply.hijack();
  const res = reply.raw;

  res.writeHead(200, { ...input.noCache, 'Content-Type': `application/x-git-${service}-${advertise ? 'advertisement' : 'result'}` });
  if (advertise) {
    res.write(gitTransport.serviceAnnouncement(service, gitProtocol));
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

  const exit = await run.done();
  if (exit.startError) req.log.error({ err: exit.startError }, 'git service failed to start');
  else if (exit.code !== 0 && !exit.signal) req.log.warn({ service, code: exit.code, stderr: exit.stderr }, 'git service failed');
  if (exit.recordError) req.log.error({ err: exit.recordError }, 'recording a push failed');
  res.end();
}
