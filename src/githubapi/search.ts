// GitHub's search calls (`gh search repos|issues|prs`, and `gh repo list` with search filters through GraphQL):
// GET /search/repositories and /search/issues, on the search services of the graph's `search` (GitHub's query
// syntax, the same read policies as Gitea's searches). GitHub's `sort`/`order` parameters become a `sort:`
// qualifier; a query or sort this server cannot honour is GitHub's 422 `Validation Failed`, naming why.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isDomainError } from '../errors.ts';
import { searchIssuePage } from '../services/pull/search.ts';
import { searchRepositoryPage } from '../services/repo/search.ts';
import { toGithubIssue } from './issue.ts';
import { githubPageOf, setGithubLinks } from './paging.ts';
import { toGithubRepository } from './repository.ts';
import { READ_ISSUE, READ_REPO } from './routeConfig.ts';

interface SearchQuery {
  q?: string;
  sort?: string;
  order?: string;
}

const DOCUMENTATION_URL = 'https://docs.github.com/rest/search/search';

/** GitHub's 422 for a search it cannot run: `errors[0].message` says why (gh prints it). */
function searchFailed(reply: FastifyReply, code: 'missing' | 'invalid', message: string): FastifyReply {
  return reply.code(422).send({
    message: 'Validation Failed',
    errors: [{ resource: 'Search', field: 'q', code, message }],
    documentation_url: DOCUMENTATION_URL,
  });
}

/**
 * The query with GitHub's `sort` and `order` parameters as a `sort:` qualifier (one of `sorts`; GitHub's default
 * order is descending). @returns null for a sort this server does not have
 */
function withSort(query: SearchQuery, sorts: readonly string[]): string | null {
  const q = typeof query.q === 'string' ? query.q : '';
  if (!query.sort) return q;
  if (!sorts.includes(query.sort)) return null;
  return `${q} sort:${query.sort}-${query.order === 'asc' ? 'asc' : 'desc'}`;
}

/** Runs a search; a query the service refuses (InvalidArgument) is GitHub's 422. */
async function search(
  reply: FastifyReply,
  query: SearchQuery,
  sorts: readonly string[],
  run: (q: string) => Promise<{ total: number; items: Record<string, unknown>[] }>,
): Promise<FastifyReply | Record<string, unknown>> {
  if (typeof query.q !== 'string' || !query.q.trim()) return searchFailed(reply, 'missing', 'The q parameter is required.');
  const q = withSort(query, sorts);
  if (q === null) return searchFailed(reply, 'invalid', `sort must be one of ${sorts.join(', ')} here.`);
  try {
    const { total, items } = await run(q);
    return { total_count: total, incomplete_results: false, items };
  } catch (err) {
    if (isDomainError(err) && err.code === 'INVALID_ARGUMENT') return searchFailed(reply, 'invalid', err.message);
    throw err;
  }
}

export function githubSearchRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: SearchQuery }>('/search/repositories', { config: { github: READ_REPO } }, async (req, reply) => {
    const page = githubPageOf(req.query);
    return search(reply, req.query, ['stars', 'forks', 'updated'], async (q) => {
      const found = await searchRepositoryPage(req.cx, q, page);
      setGithubLinks(req, reply, page, found.total);
      return { total: found.total, items: found.items.map((r) => toGithubRepository(r.repo, req.cx.config.rootUrl)) };
    });
  });

  app.get<{ Querystring: SearchQuery }>('/search/issues', { config: { github: READ_ISSUE } }, async (req, reply) => {
    const page = githubPageOf(req.query);
    return search(reply, req.query, ['created', 'updated', 'comments'], async (q) => {
      const found = await searchIssuePage(req.cx, q, page);
      setGithubLinks(req, reply, page, found.total);
      return {
        total: found.total,
        items: found.items.map((f) => toGithubIssue(f.view, f.association, req.cx.config.rootUrl)),
      };
    });
  });
}
