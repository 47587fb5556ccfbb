// GitHub's fork call (`gh repo fork`): POST /repos/{o}/{r}/forks on the fork service of /api/v1 (same gates).
// GitHub answers 202 with the fork, and with the existing fork when the owner has one already (Gitea: 409).
import type { FastifyInstance } from 'fastify';
import { isDomainError } from '../errors.ts';
import * as forkService from '../services/repo/fork.ts';
import { getRepo } from '../services/repo/read.ts';
import { sendGithubError } from './errors.ts';
import { toGithubRepository } from './repository.ts';
import { WRITE_REPO } from './routeConfig.ts';

interface RepoParams {
  owner: string;
  repo: string;
}
interface ForkBody {
  organization?: unknown;
  name?: unknown;
  default_branch_only?: unknown;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function githubForkRoutes(app: FastifyInstance): void {
  app.post<{ Params: RepoParams; Body: ForkBody | undefined }>(
    '/repos/:owner/:repo/forks',
    { config: { github: WRITE_REPO } },
    async (req, reply) => {
      const { owner, repo } = req.params;
      // Forks copy every branch, as Gitea's do; GitHub's option to copy only the default one is refused by name.
      if (req.body?.default_branch_only === true) {
        return sendGithubError(reply, 422, 'default_branch_only is not supported: a fork copies every branch');
      }
      const input = { organization: text(req.body?.organization), name: text(req.body?.name) };
      let fork;
      try {
        fork = (await forkService.forkRepo(req.cx, owner, repo, input)).repo;
      } catch (err) {
        // The owner's existing fork of this repository is GitHub's answer, not a conflict.
        const existing = isDomainError(err) && err.code === 'ALREADY_EXISTS' ? err.data.fork : undefined;
        if (typeof existing !== 'string') throw err;
        const [forkOwner = '', forkName = ''] = existing.split('/');
        fork = (await getRepo(req.cx, forkOwner, forkName)).repo;
      }
      return reply.code(202).send(toGithubRepository(fork, req.cx.config.rootUrl, fork.forkOf));
    },
  );
}
