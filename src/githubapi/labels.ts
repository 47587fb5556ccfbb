// GitHub's label calls (`gh label create [--force]`): POST /repos/{o}/{r}/labels and PATCH …/labels/{name}, on the
// repository label service of /api/v1 (same gate: issue writers; token scope write:issue).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isDomainError } from '../errors.ts';
import * as repoLabelService from '../services/label/repoLabel.ts';
import { nodeId } from './nodeId.ts';
import { WRITE_ISSUE } from './routeConfig.ts';

const DOCUMENTATION_URL = 'https://docs.github.com/rest/issues/labels';

interface LabelParams {
  owner: string;
  repo: string;
}
interface LabelBody {
  name?: unknown;
  new_name?: unknown;
  color?: unknown;
  description?: unknown;
}

/** GitHub's label object; `url` is this server's /api/v3 address of it (in `repo`), `node_id` its id in our graph. */
export function toGithubLabel(
  label: Pick<repoLabelService.RepoLabel, 'id' | 'name' | 'color' | 'description'>,
  repo: { ownerName: string; name: string },
  rootUrl: string,
): Record<string, unknown> {
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  return {
    id: label.id,
    node_id: nodeId('Label', label.id),
    url: `${rootUrl}api/v3/repos/${path}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    default: false,
    description: label.description || null,
  };
}

/** GitHub's 422 body for a field that failed (`{message: "Validation Failed", errors: [...]}`). */
function validationFailed(reply: FastifyReply, field: string, code: 'missing_field' | 'already_exists' | 'invalid'): FastifyReply {
  return reply.code(422).send({
    message: 'Validation Failed',
    errors: [{ resource: 'Label', code, field }],
    documentation_url: DOCUMENTATION_URL,
  });
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function githubLabelRoutes(app: FastifyInstance): void {
  app.post<{ Params: LabelParams; Body: LabelBody }>(
    '/repos/:owner/:repo/labels',
    { config: { github: WRITE_ISSUE } },
    async (req, reply) => {
      const name = text(req.body?.name)?.trim();
      if (!name) return validationFailed(reply, 'name', 'missing_field');
      const ref = { owner: req.params.owner, repo: req.params.repo };
      // A second label of the name is GitHub's 422 already_exists, which `gh label create --force` answers with the PATCH below.
      try {
        const label = await repoLabelService.createRepoLabel(
          req.cx,
          ref,
          { name, color: text(req.body.color) ?? 'ededed', description: text(req.body.description) ?? '' },
          { uniqueName: true },
        );
        return reply.code(201).send(toGithubLabel(label, label.repo, req.cx.config.rootUrl));
      } catch (err) {
        if (isDomainError(err) && err.code === 'ALREADY_EXISTS') return validationFailed(reply, 'name', 'already_exists');
        throw err;
      }
    },
  );

  app.patch<{ Params: LabelParams & { name: string }; Body: LabelBody }>(
    '/repos/:owner/:repo/labels/:name',
    { config: { github: WRITE_ISSUE } },
    async (req) => {
      const ref = { owner: req.params.owner, repo: req.params.repo };
      const label = await repoLabelService.getRepoLabel(req.cx, ref, req.params.name);
      const newName = text(req.body?.new_name) ?? text(req.body?.name);
      const updated = await repoLabelService.updateRepoLabel(req.cx, ref, label.id, {
        ...(newName !== undefined ? { name: newName } : {}),
        ...(text(req.body?.color) !== undefined ? { color: text(req.body.color) } : {}),
        ...(text(req.body?.description) !== undefined ? { description: text(req.body.description) } : {}),
      });
      return toGithubLabel(updated, updated.repo, req.cx.config.rootUrl);
    },
  );

  // gh label delete: 204, GitHub's 404 for a name the repository does not have.
  app.delete<{ Params: LabelParams & { name: string } }>(
    '/repos/:owner/:repo/labels/:name',
    { config: { github: WRITE_ISSUE } },
    async (req, reply) => {
      const ref = { owner: req.params.owner, repo: req.params.repo };
      const label = await repoLabelService.getRepoLabel(req.cx, ref, req.params.name);
      await repoLabelService.deleteRepoLabel(req.cx, ref, label.id);
      return reply.code(204).send();
    },
  );
}
