// Gitea's `serv` for the built-in SSH server: who a signed-in key acts as, whether its command may run (the same
// repository service as smart HTTP), and the lines the client sees when it may not.
import type { SshKeyInfo } from '../auth/authInfo.ts';
import { findSshKeyById } from '../auth/sshKey.ts';
import type { Models } from '../db/client.ts';
import { isDomainError } from '../errors.ts';
import { createServiceContext, type AppDeps, type ServiceContext } from '../services/context.ts';
import * as gitAccess from '../services/repo/gitAccess.ts';
import * as wikiGit from '../services/wiki/wikiGit.ts';
import type { SshCommand } from './command.ts';

/** The key a connection signed in with, and its user (null for a deploy key). */
export interface SshIdentity {
  key: SshKeyInfo;
  user: Models.User | null;
}

/** A command that may run, or the line that refuses it. */
export type ServDecision = { ok: true; cx: ServiceContext; access: gitAccess.GitRepoAccess } | { ok: false; message: string };

/** Gitea's check of a user key's account (ServNoCommand, ServCommand). */
const disabled = (user: Models.User | null): boolean => user !== null && (!user.isActive || user.prohibitLogin);

/**
 * The connection's key as it is now (deleted keys, and users who may no longer sign in, lose access at once),
 * or the refusal.
 */
async function currentIdentity(deps: AppDeps, id: SshIdentity): Promise<SshIdentity | { message: string }> {
  const found = await findSshKeyById(deps.db, id.key.id);
  if (!found) return { message: `Cannot find key: ${id.key.id}` };
  if (disabled(found.user)) return { message: 'Your account is disabled.' };
  return { key: found.key, user: found.user };
}

/**
 * What a shell request answers (Gitea's serv without a command): a greeting that names the key, and that there
 * is no shell; or why the key is refused. `ok` is the exit status's success.
 */
export async function shellGreeting(deps: AppDeps, id: SshIdentity): Promise<{ ok: boolean; text: string }> {
  const current = await currentIdentity(deps, id);
  if ('message' in current) return { ok: false, text: current.message };
  const app = deps.config.appName;
  const hello = current.user
    ? `Hi there, ${current.user.name}! You've successfully authenticated with the key named ${current.key.name}`
    : `Hi there! You've successfully authenticated with the deploy key named ${current.key.name}`;
  return {
    ok: true,
    text: `${hello}, but ${app} does not provide shell access.\nIf this is unexpected, please log in with password and setup ${app} under another user.`,
  };
}

/**
 * Authorizes a git command (Gitea ServCommand) through the repository service smart HTTP uses: a user key acts
 * as its user, with all of their rights (no token scopes); a deploy key as nobody, with its grant on the
 * repositories it was added to. A repository the key may not read is "Cannot find repository" whether it exists
 * or not; the other refusals are Gitea's texts.
 */
export async function authorizeCommand(deps: AppDeps, id: SshIdentity, cmd: Extract<SshCommand, { ok: true }>): Promise<ServDecision> {
  const current = await currentIdentity(deps, id);
  if ('message' in current) return { ok: false, message: current.message };
  const { key, user } = current;
  const cx = createServiceContext(deps, user, { method: 'ssh', scope: null, tokenId: null, sudoerId: null, sshKey: key });
  const repo = `${cmd.owner}/${cmd.name}`;
  const mode = cmd.service === 'receive-pack' ? 'write' : 'read';
  try {
    return {
      ok: true,
      cx,
      // `<repo>.wiki` is the repository's wiki (as on smart HTTP: no repository may be named `*.wiki`).
      access: cmd.name.endsWith('.wiki')
        ? await wikiGit.requireWikiGitAccess(cx, cmd.owner, cmd.name.slice(0, -'.wiki'.length), mode)
        : await gitAccess.requireGitAccess(cx, cmd.owner, cmd.name, mode),
    };
  } catch (err) {
    if (!isDomainError(err)) throw err;
    switch (err.code) {
      case 'NOT_FOUND':
      case 'UNAUTHENTICATED':
        return { ok: false, message: `Cannot find repository: ${repo}` };
      case 'REPO_ARCHIVED':
        return { ok: false, message: `Repo: ${repo} is archived.` };
      case 'PERMISSION_DENIED':
        if (err.data.reason === 'MIRROR_READ_ONLY') return { ok: false, message: `Mirror Repository ${repo} is read-only` };
        return {
          ok: false,
          message: user
            ? `User: ${user.id}:${user.name} with Key: ${key.id}:${key.name} is not authorized to write to ${repo}.`
            : `Deploy Key: ${key.id}:${key.name} is not authorized to write to ${repo}.`,
        };
      default:
        throw err;
    }
  }
}
