import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isDomainError } from '../errors.ts';
import { getContents, requireCodeRead, type ContentEntry } from '../services/repo/gitRead.ts';
import * as branchService from '../services/repo/branch.ts';
import { getReadme } from '../services/repo/readme.ts';
import * as tagService from '../services/release/tag.ts';
import { toGithubContent } from './convert.ts';
import { sendGithubError } from './errors.ts';
import { githubActionsRoutes } from './actions.ts';
import { githubForkRoutes } from './forks.ts';
import { githubLabelRoutes } from './labels.ts';
import { githubPullRoutes } from './pulls.ts';
import { githubReleaseAssetRoutes } from './releaseAssets.ts';
import { githubReleaseRoutes } from './releases.ts';
import { githubSearchRoutes } from './search.ts';
import { READ_REPO, WRITE_REPO } from './routeConfig.ts';

interface RepoParams {
  owner: string;
  repo: string;
}

/** The routes of /api/v3 (README "GitHub's REST v3"). */
export function githubRoutes(app: FastifyInstance): void {
  // GitHub's root: what gh reads to check a token (its X-OAuth-Scopes); lists the URL templates served here.
  app.get('/', { config: { github: { scope: null } } }, async (req) => {
    const root = req.cx.config.rootUrl;
    return {
      graphql_url: `${root}api/graphql`,
      repository_readme_url: `${root}api/v3/repos/{owner}/{repo}/readme{?ref}`,
      git_ref_url: `${root}api/v3/repos/{owner}/{repo}/git/refs/{ref}`,
    };
  });

  app.get<{ Params: RepoParams; Querystring: { ref?: string } }>(
    '/repos/:owner/:repo/readme',
    { config: { github: READ_REPO } },
    async (req) => {
      const ref = typeof req.query.ref === 'string' ? req.query.ref : undefined;
      return toGithubContent(await getReadme(req.cx, req.params.owner, req.params.repo, ref), req.cx.config.rootUrl);
    },
  );

  // A file (base64) or a directory's entries at `ref` (`gh workflow view --yaml`), as the /api/v1 contents read.
  const contents = async (req: FastifyRequest<{ Params: RepoParams & { '*'?: string }; Querystring: { ref?: string } }>) => {
    const ref = typeof req.query.ref === 'string' ? req.query.ref : undefined;
    const found = await getContents(req.cx, req.params.owner, req.params.repo, req.params['*'] ?? '', ref);
    const at = (e: ContentEntry) => toGithubContent({ repo: found.repo, ref: found.ref, ...e }, req.cx.config.rootUrl);
    return Array.isArray(found.result) ? found.result.map(at) : at(found.result);
  };
  app.get('/repos/:owner/:repo/contents', { config: { github: READ_REPO } }, contents);
  app.get('/repos/:owner/:repo/contents/*', { config: { github: READ_REPO } }, contents);

  // GitHub deletes `heads/<branch>` and `tags/<tag>` (gh pr merge --delete-branch); 204, or 422 for a reference that is not there.
  app.delete<{ Params: RepoParams & { '*': string } }>(
    '/repos/:owner/:repo/git/refs/*',
    { config: { github: WRITE_REPO } },
    async (req, reply) => {
      const ref = { owner: req.params.owner, repo: req.params.repo };
      const name = req.params['*'];
      // The repository first (404 when not visible); a reference that is then not found is GitHub's 422.
      await requireCodeRead(req.cx, ref.owner, ref.repo);
      try {
        if (name.startsWith('heads/')) await branchService.deleteBranch(req.cx, ref, name.slice('heads/'.length));
        else if (name.startsWith('tags/')) await tagService.deleteTag(req.cx, ref, name.slice('tags/'.length));
        else return sendGithubError(reply, 422, 'Reference does not exist');
      } catch (err) {
        if (isDomainError(err) && err.code === 'NOT_FOUND') return sendGithubError(reply, 422, 'Reference does not exist');
        throw err;
      }
      return reply.code(204).send();
    },
  );

  githubForkRoutes(app);
  githubLabelRoutes(app);
  githubPullRoutes(app);
  githubReleaseRoutes(app);
  githubReleaseAssetRoutes(app);
  githubSearchRoutes(app);
  githubActionsRoutes(app);
}
