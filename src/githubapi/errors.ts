// GitHub's REST error body: `{"message", "documentation_url"}`, with GitHub's statuses for our domain errors.
import type { FastifyReply } from 'fastify';
import type { DomainError } from '../errors.ts';

const DOCUMENTATION_URL = 'https://docs.github.com/rest';

/** Sends GitHub's error body. */
export function sendGithubError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ message, documentation_url: DOCUMENTATION_URL });
}

/** GitHub's status and message for a domain error: 404 `Not Found` (never revealing why), 422 for bad input and conflicts. */
export function githubErrorOf(err: DomainError): { status: number; message: string } {
  switch (err.code) {
    case 'NOT_FOUND':
      return { status: 404, message: 'Not Found' };
    case 'UNAUTHENTICATED':
      return { status: 401, message: 'Requires authentication' };
    case 'PERMISSION_DENIED':
      return { status: 403, message: err.message };
    case 'REPO_ARCHIVED':
      return { status: 403, message: 'Repository was archived so is read-only.' };
    case 'VALIDATION':
      return err.data.reason === 'TOO_LARGE' ? { status: 413, message: err.message } : { status: 422, message: err.message };
    case 'INVALID_ARGUMENT':
    case 'ALREADY_EXISTS':
    case 'CONFLICT':
    case 'PRECONDITION_FAILED':
      return { status: 422, message: err.message };
    default: {
      const unreachable: never = err.code;
      return unreachable;
    }
  }
}
