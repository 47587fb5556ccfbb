// Remote credentials of migrations, pull mirrors and push mirrors: sealed at rest with SECRET_KEY, given to git
// as an Authorization header in its environment, never put in a URL, a log line or an API answer.
import { openSecret, sealSecret } from '../webhook/secretBox.ts';

/** What a remote may need: a user name and password, or a token (sent as Gitea does, user `oauth2`). */
export interface RemoteCredentials {
  username: string;
  password: string;
  token: string;
}

/** No credentials. */
export const NO_CREDENTIALS: RemoteCredentials = { username: '', password: '', token: '' };

/** Seals credentials for a `credentialsEncrypted` column ("" when there are none). */
export function sealCredentials(secretKey: string, c: RemoteCredentials): string {
  if (!c.username && !c.password && !c.token) return '';
  return sealSecret(secretKey, JSON.stringify(c));
}

/** Opens a sealed `credentialsEncrypted` value. */
export function openCredentials(secretKey: string, sealed: string): RemoteCredentials {
  if (!sealed) return NO_CREDENTIALS;
  const parsed = JSON.parse(openSecret(secretKey, sealed)) as Partial<RemoteCredentials>;
  return { username: parsed.username ?? '', password: parsed.password ?? '', token: parsed.token ?? '' };
}

/** The HTTP Authorization value for git: Basic with `oauth2:<token>` (Gitea's FormatCloneURL) or `user:password`. */
export function gitAuthorization(c: RemoteCredentials): string | undefined {
  const pair = c.token ? `oauth2:${c.token.split(',')[0] ?? ''}` : c.username || c.password ? `${c.username}:${c.password}` : '';
  return pair ? `Basic ${Buffer.from(pair).toString('base64')}` : undefined;
}

/** The Authorization value for a forge API (`token <t>`, or Basic), or undefined. */
export function apiAuthorization(c: RemoteCredentials): string | undefined {
  if (c.token) return `token ${c.token.split(',')[0] ?? ''}`;
  return c.username || c.password ? `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}` : undefined;
}

/** `text` with every secret of `c` replaced, for error messages that may echo what git or a server printed. */
export function redact(text: string, c: RemoteCredentials): string {
  let out = text;
  for (const secret of [c.password, c.token, gitAuthorization(c) ?? '', apiAuthorization(c) ?? '']) {
    if (secret.length >= 3) out = out.split(secret).join('<credentials>');
  }
  return out;
}
