// Gitea's migration address policy (services/migrations/migrate.go IsMigrateURLAllowed + Init).
import { lookup } from 'node:dns/promises';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { MigrationSettings } from '../../config.ts';
import type { Models } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import { compileGlob } from '../glob.ts';
import { parseHostPolicy } from '../webhook/hostPolicy.ts';

/** Gitea's texts (routers/api/v1/repo/migrate.go handleRemoteAddrError). */
export const ADDRESS_MESSAGES = {
  invalid: 'The provided URL is invalid.',
  disallowedHost: 'You can not import from disallowed hosts.',
  localDenied: 'You are not allowed to import local repositories.',
  invalidPath: 'Invalid local path, it does not exist or not a directory.',
} as const;

/** A clone address that passed the policy: a remote URL without credentials, or a local directory. */
export type CloneAddress = { kind: 'remote'; url: URL } | { kind: 'local'; path: string };

/** Credentials found in the address's userinfo (Gitea takes them when no auth_* field is given). */
export interface AddressCredentials {
  username: string;
  password: string;
}

function refuse(message: string, reason: string): never {
  throw new ValidationError(message, { reason });
}

/**
 * Whether the host (a name or an address literal) may be contacted under `settings`, after DNS resolution.
 * A failed lookup is not a refusal (Gitea ignores it: some installations reach the outside only through a proxy
 * and have no resolver): the name alone is judged then, against the blocked globs and, when the allow list has
 * only name globs, against those; the connection made later is checked again (see checkCloneAddress).
 */
async function hostAllowed(settings: MigrationSettings, host: string): Promise<boolean> {
  const allowList = parseHostPolicy([
    ...(settings.allowedDomains.length ? settings.allowedDomains : ['external']),
    ...(settings.allowLocalNetworks ? ['private', 'loopback'] : []),
  ]);
  const blocked = settings.blockedDomains.map((g) => compileGlob(g.toLowerCase(), { nocase: true }));
  if (blocked.some((g) => g(host.toLowerCase()))) return false;
  const addresses = await lookup(host, { all: true }).then(
    (list) => list.map((a) => a.address),
    () => null,
  );
  if (addresses === null) return allowList.allowsHost(host) || allowList.judgesAddresses;
  const ipAllowed = addresses.some((a) => allowList.allowsIp(a));
  const ipBlocked = addresses.some((a) => blocked.some((g) => g(a)));
  if (!allowList.allowsHost(host) && !ipAllowed) return false;
  return !ipBlocked;
}

/** Parses a clone address the way Gitea's ParseRemoteAddr does: an http(s)/git URL, or a local path. */
export function parseCloneAddress(raw: string): { url: URL | null; localPath: string | null; credentials: AddressCredentials | null } {
  const text = raw.trim();
  if (path.isAbsolute(text)) return { url: null, localPath: text, credentials: null };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse(ADDRESS_MESSAGES.invalid, 'URL_ERROR');
  }
  if (url.protocol === 'file:') return { url: null, localPath: decodeURIComponent(url.pathname), credentials: null };
  if (!['http:', 'https:', 'git:'].includes(url.protocol) || !url.hostname) refuse(ADDRESS_MESSAGES.invalid, 'URL_ERROR');
  if (url.protocol === 'git:' && !url.port && /%0[ad]/i.test(text)) refuse(ADDRESS_MESSAGES.invalid, 'URL_ERROR');
  const credentials =
    url.username || url.password ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : null;
  url.username = '';
  url.password = '';
  return { url, localPath: null, credentials };
}

/**
 * Checks a clone (or mirror) address against the policy: local paths only for site admins and users allowed
 * to import local repositories, and only existing directories; remote hosts by MIGRATIONS_ALLOWED_DOMAINS (by
 * default external addresses, plus private and loopback ones with MIGRATIONS_ALLOW_LOCALNETWORKS) minus
 * MIGRATIONS_BLOCKED_DOMAINS. Checked when a migration or mirror is asked for, and again before each connection
 * to the source (the migration's first fetch, every mirror sync), when the host may resolve where it did not.
 * @throws ValidationError with Gitea's messages
 */
export async function checkCloneAddress(
  settings: MigrationSettings,
  doer: Pick<Models.User, 'isAdmin' | 'allowImportLocal'>,
  raw: string,
): Promise<CloneAddress> {
  const parsed = parseCloneAddress(raw);
  if (parsed.localPath !== null) {
    if (!doer.isAdmin && !doer.allowImportLocal) refuse(ADDRESS_MESSAGES.localDenied, 'LOCAL_DENIED');
    const info = await stat(parsed.localPath).catch(() => null);
    if (!info?.isDirectory()) refuse(ADDRESS_MESSAGES.invalidPath, 'INVALID_PATH');
    return { kind: 'local', path: parsed.localPath };
  }
  const url = parsed.url as URL;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!(await hostAllowed(settings, host))) refuse(ADDRESS_MESSAGES.disallowedHost, 'DISALLOWED_HOST');
  return { kind: 'remote', url };
}
