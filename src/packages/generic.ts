// The generic registry's routes: PUT/GET/DELETE /{owner}/generic/{name}/{version}/{filename}, DELETE …/{version}.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as generic from '../services/package/generic.ts';
import { replyError, sendFile } from './reply.ts';

interface FileParams {
  owner: string;
  name: string;
  version: string;
  filename: string;
}

type Req = FastifyRequest<{ Params: FileParams }>;

const attempt = async (reply: FastifyReply, fn: () => Promise<unknown>): Promise<unknown> => {
  try {
    return await fn();
  } catch (err) {
    return replyError(reply, 'text', err);
  }
};

/** Registers the generic registry on the /api/packages instance. */
export function genericRoutes(app: FastifyInstance): void {
  const base = '/:owner/generic/:name/:version';
  app.put(`${base}/:filename`, (req: Req, reply) =>
    attempt(reply, async () => {
      await generic.uploadGenericFile(req.cx, req.params, req.raw);
      return reply.code(201).send();
    }),
  );
  app.get(`${base}/:filename`, (req: Req, reply) =>
    attempt(reply, async () => sendFile(reply, await generic.downloadGenericFile(req.cx, req.params))),
  );
  app.delete(`${base}/:filename`, (req: Req, reply) =>
    attempt(reply, async () => {
      await generic.deleteGenericFile(req.cx, req.params);
      return reply.code(204).send();
    }),
  );
  app.delete(base, (req: Req, reply) =>
    attempt(reply, async () => {
      await generic.deleteGenericVersion(req.cx, req.params);
      return reply.code(204).send();
    }),
  );
}
