import type { FastifyRequest } from 'fastify';
import { parseCredentials } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { formatScope, scopeAllows } from '../auth/scope.ts';
import { isDomainError } from '../errors.ts';
import { createServiceContext, type AppDeps, type ServiceContext } from '../services/context.ts';
import * as gitAccess from '../services/repo/gitAccess.ts';
import { findUserRedirect } from '../services/user/redirect.ts';
import * as wikiGit from '../services/wiki/wikiGit.ts';

/** A plain-text refusal; git prints the body of text/plain errors as `remote: …` lines. */
export interface GitRefusal {
  status: number;
  message: string;
  /** Ask for Basic credentials (git then prompts or uses its credential helper). */
  challenge: boolean;
  /** Sent as `Retry-After` (429: failed sign-ins throttled). */
  retryAfterSeconds?: number | undefined;
  /** The owner was renamed: the same request goes to this owner name instead (Gitea RedirectToUser, 307). */
  movedOwner?: string | undefined;
}

/** The outcome of authorizing a git request. */
export type GitAuthorization = { ok: true; cx: ServiceContext; access: gitAccess.GitRepoAccess } | { ok: false; refusal: GitRefusal };

const refuse = (status: number, message: string, challenge = false, retryAfterSeconds?: number): GitAuthorization => ({
  ok: false,
  refusal: { status, message, challenge, retryAfterSeconds },
});

/**
 * Authenticates the request like the API (Basic with password or token, token headers), then asks the
 * repository service (the wiki service for `<repo>.wiki`) for read or write access. Token scopes:
 * read:repository to fetch, write:repository to push.
 */
export async function authorizeGitRequest(
  deps: AppDeps,
  req: FastifyRequest,
  target: { owner: string; name: string; wiki: boolean },
  mode: 'read' | 'write',
): Promise<GitAuthorization> {
  const { owner, name } = target;
  const url = new URL(req.url, 'http://x');
  const creds = parseCredentials(req.headers.authorization, url.searchParams);
  const resolved = await resolveViewer(deps, creds, { clientIp: req.ip });
  if (!resolved.ok) return refuse(resolved.status, resolved.message, resolved.status === 401, resolved.retryAfterSeconds);
  const cx = createServiceContext(deps, resolved.user, resolved.auth);
  const { auth } = resolved;
  try {
    const access = target.wiki
      ? await wikiGit.requireWikiGitAccess(cx, owner, name, mode)
      : await gitAccess.requireGitAccess(cx, owner, name, mode);
    if (auth.method === 'token' && auth.scope && !scopeAllows(auth.scope, ['repository'], mode)) {
      return refuse(
        403,
        `token does not have at least one of required scope(s), required=[${mode}:repository], token scope=${formatScope(auth.scope)}`,
      );
    }
    return { ok: true, cx, access };
  } catch (err) {
    if (!isDomainError(err)) throw err;
    if (err.code === 'UNAUTHENTICATED' || err.code === 'NOT_FOUND') {
      const movedOwner = await findUserRedirect(cx, owner);
      if (movedOwner) return { ok: false, refusal: { status: 307, message: '', challenge: false, movedOwner } };
    }
    switch (err.code) {
      case 'UNAUTHENTICATED':
        return refuse(401, 'Unauthorized', true);
      case 'NOT_FOUND':
        return refuse(404, err.message);
      case 'REPO_ARCHIVED':
      case 'PERMISSION_DENIED':
        return refuse(403, err.message);
      default:
        throw err;
    }
  }
}
