// The v4 artifact API at /twirp/github.actions.results.api.v1.ArtifactService (Gitea routers/api/actions/
// artifactsv4.go): protojson Twirp calls with the task token as bearer, plus the signed UploadArtifact (PUT) and
// DownloadArtifact (GET) URLs. Errors are Gitea's plain-text ctx.HTTPError answers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidArgumentError, isDomainError, type DomainError } from '../errors.ts';
import * as v4 from '../services/actions/artifactsV4.ts';
import { createSystemContext, type AppDeps, type ServiceContext } from '../services/context.ts';

const MAX_CALL_BYTES = 1024 * 1024;

/** A protojson message: fields arrive in snake_case (the toolkit) or lowerCamelCase. */
type Message = Record<string, unknown>;

async function readMessage(req: FastifyRequest): Promise<Message> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_CALL_BYTES) throw new InvalidArgumentError('Error decode request body');
    chunks.push(chunk);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Message;
  } catch {
    // answered below
  }
  throw new InvalidArgumentError('Error decode request body');
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/** A string (or int64-as-string, or wrapper) field; null when absent. */
function field(msg: Message, snake: string): string | null {
  const v = msg[snake] ?? msg[camel(snake)];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  throw new InvalidArgumentError('Error decode request body');
}

function intField(msg: Message, snake: string): number | null {
  const v = field(msg, snake);
  if (v === null) return null;
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new InvalidArgumentError('Error decode request body');
  return Number(v);
}

function timeField(msg: Message, snake: string): Date | null {
  const v = field(msg, snake);
  if (v === null) return null;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError('Error decode request body');
  return d;
}

/** Gitea's statuses for what these handlers refuse (ctx.HTTPError): 401, 404, else 400 for bad input. */
function statusOf(err: DomainError): number {
  switch (err.code) {
    case 'UNAUTHENTICATED':
      return 401;
    case 'PERMISSION_DENIED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'ALREADY_EXISTS':
    case 'CONFLICT':
      return 409;
    default:
      return 400;
  }
}

function sendFailure(reply: FastifyReply, err: unknown): FastifyReply {
  if (!isDomainError(err)) throw err;
  return reply.code(statusOf(err)).type('text/plain; charset=utf-8').send(`${err.message}\n`);
}

const json = (reply: FastifyReply, body: unknown) => reply.code(200).type('application/json;charset=utf-8').send(JSON.stringify(body));

type Call = (cx: ServiceContext, task: v4.ArtifactTask, msg: Message) => Promise<unknown>;

const CALLS: Record<string, Call> = {
  CreateArtifact: async (cx, task, msg) => ({
    ok: true,
    signedUploadUrl: await v4.createArtifact(cx, task, {
      backendRunId: field(msg, 'workflow_run_backend_id') ?? '',
      name: field(msg, 'name') ?? '',
      expiresAt: timeField(msg, 'expires_at'),
    }),
  }),
  FinalizeArtifact: async (cx, task, msg) => {
    const id = await v4.finalizeArtifact(cx, task, {
      backendRunId: field(msg, 'workflow_run_backend_id') ?? '',
      name: field(msg, 'name') ?? '',
      size: intField(msg, 'size'),
      hash: field(msg, 'hash'),
    });
    return { ok: true, artifactId: String(id) };
  },
  ListArtifacts: async (cx, task, msg) => {
    const arts = await v4.listRunArtifacts(cx, task, {
      backendRunId: field(msg, 'workflow_run_backend_id') ?? '',
      nameFilter: field(msg, 'name_filter'),
      idFilter: intField(msg, 'id_filter'),
    });
    return {
      artifacts: arts.map((a) => ({
        workflowRunBackendId: field(msg, 'workflow_run_backend_id') ?? '',
        workflowJobRunBackendId: field(msg, 'workflow_job_run_backend_id') ?? '',
        databaseId: String(a.id),
        name: a.name,
        size: String(a.size),
        createdAt: a.createdAt.toISOString(),
      })),
    };
  },
  GetSignedArtifactURL: async (cx, task, msg) => ({
    signedUrl: await v4.signedDownloadUrl(cx, task, {
      backendRunId: field(msg, 'workflow_run_backend_id') ?? '',
      name: field(msg, 'name') ?? '',
    }),
  }),
  DeleteArtifact: async (cx, task, msg) => {
    const id = await v4.deleteRunArtifact(cx, task, {
      backendRunId: field(msg, 'workflow_run_backend_id') ?? '',
      name: field(msg, 'name') ?? '',
    });
    return { ok: true, artifactId: String(id) };
  },
};

/** Mounts the service (call inside a plugin registered with prefix `/twirp/github.actions.results.api.v1.ArtifactService`). */
export function artifactService(app: FastifyInstance, deps: AppDeps): void {
  const cx = createSystemContext(deps);
  app.removeAllContentTypeParsers();
  // Bodies stay in the socket: uploads stream to disk, calls are read within their limit.
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  const query = (req: FastifyRequest) => new URL(req.url, 'http://x').searchParams;

  for (const [name, call] of Object.entries(CALLS)) {
    app.post(`/${name}`, async (req, reply) => {
      try {
        const task = await v4.artifactTaskOf(cx, req.headers.authorization);
        return json(reply, await call(cx, task, await readMessage(req)));
      } catch (err) {
        return sendFailure(reply, err);
      }
    });
  }
  app.put('/UploadArtifact', async (req, reply) => {
    try {
      const done = await v4.uploadArtifact(cx, query(req), req.raw);
      return reply.code(201).type('application/json;charset=utf-8').send(JSON.stringify(done));
    } catch (err) {
      req.raw.resume();
      return sendFailure(reply, err);
    }
  });
  app.get('/DownloadArtifact', async (req, reply) => {
    try {
      const file = await v4.downloadArtifact(cx, query(req));
      return reply.code(200).type('application/zip').header('content-length', String(file.size)).send(file.stream);
    } catch (err) {
      return sendFailure(reply, err);
    }
  });
}
