// GitHub's pull request diff (`gh pr diff`): GET /repos/{o}/{r}/pulls/{n} asked for as
// `application/vnd.github.v3.diff` or `.patch`, streamed by the same service as /api/v1's `pulls/{n}.diff|.patch`.
// The pull request as JSON is GitHub's GraphQL here (gh reads it there); this route answers 415 for it, by name.
import type { FastifyInstance } from 'fastify';
import { pullDiffStream } from '../services/pull/compare.ts';
import { sendGithubError } from './errors.ts';
import { READ_REPO } from './routeConfig.ts';

interface PullParams {
  owner: string;
  repo: string;
  number: string;
}

/** `diff` or `patch` from GitHub's media types (`application/vnd.github[.v3].diff`), otherwise null. */
function diffKindOf(accept: string | undefined): 'diff' | 'patch' | null {
  const match = /application\/vnd\.github(?:\.v3)?\.(diff|patch)\b/.exec(accept ?? '');
  return match ? (match[1] as 'diff' | 'patch') : null;
}

export function githubPullRoutes(app: FastifyInstance): void {
  app.get<{ Params: PullParams }>('/repos/:owner/:repo/pulls/:number', { config: { github: READ_REPO } }, async (req, reply) => {
    const index = Number(req.params.number);
    if (!Number.isSafeInteger(index) || index < 1) return sendGithubError(reply, 404, 'Not Found');
    const kind = diffKindOf(req.headers.accept);
    if (!kind) {
      return sendGithubError(
        reply,
        415,
        'Only application/vnd.github.v3.diff and application/vnd.github.v3.patch are served here; read pull requests through /api/graphql or /api/v1.',
      );
    }
    const stream = await pullDiffStream(req.cx, { owner: req.params.owner, repo: req.params.repo }, index, kind);
    return reply.code(200).type(`application/vnd.github.v3.${kind}; charset=utf-8`).send(stream);
  });
}
