import { ValidationError } from '../../errors.ts';

// Gitea modules/validation: a name starts with an alphanumeric, then [\w.-], with no doubled or trailing separators.
const VALID_USERNAME = /^[\da-zA-Z][\w.-]*$/;
const INVALID_USERNAME = /[-._]{2,}|[-._]$/;

// Gitea models/user/user.go reservedUsernames / reservedUserPatterns.
const RESERVED_NAMES = new Set([
  '.',
  '..',
  '.well-known',
  'api',
  'assets',
  'attachments',
  'avatar',
  'avatars',
  'captcha',
  'commits',
  'debug',
  'error',
  'explore',
  'favicon.ico',
  'ghost',
  'issues',
  'login',
  'manifest.json',
  'metrics',
  'milestones',
  'new',
  'notifications',
  'org',
  'pulls',
  'raw',
  'repo',
  'repo-avatars',
  'robots.txt',
  'search',
  'serviceworker.js',
  'ssh_info',
  'swagger.v1.json',
  'user',
  'v2',
  'gitea-actions',
  'graphql',
]);
const RESERVED_SUFFIXES = ['.keys', '.gpg', '.rss', '.atom', '.png'];

/** Checks a new user or organization name (syntax, length, reserved words). @throws ValidationError */
export function validateUsername(name: string, field = 'username'): void {
  validateUsernameSyntax(name, field);
  validateUsernameAvailable(name);
}

/** Gitea's binding rules for a name (Required, Username, MaxSize(40)). @throws ValidationError */
export function validateUsernameSyntax(name: string, field = 'username'): void {
  if (!name) throw new ValidationError('Required', { field, rule: 'Required' });
  if (name.length > 40) throw new ValidationError('MaxSize', { field, rule: 'MaxSize' });
  if (!VALID_USERNAME.test(name) || INVALID_USERNAME.test(name)) {
    throw new ValidationError('invalid username', { field, rule: 'Username' });
  }
}

/** Gitea's IsUsableUsername: reserved names and patterns (checked after binding and password policy). @throws ValidationError */
export function validateUsernameAvailable(name: string): void {
  const lower = name.toLowerCase();
  if (RESERVED_NAMES.has(lower)) throw new ValidationError(`name is reserved [name: ${name}]`);
  const suffix = RESERVED_SUFFIXES.find((s) => lower.endsWith(s));
  if (suffix) throw new ValidationError(`name pattern is not allowed [pattern: *${suffix}]`);
}

// Gitea models/user/email_address.go emailRegexp.
const EMAIL_CHARS =
  /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Why an e-mail address is unacceptable, in Gitea's words, or null when it is fine. */
export function emailProblem(email: string): string | null {
  if (!email) return `e-mail invalid [email: ${email}]`;
  if (!EMAIL_CHARS.test(email)) return `e-mail address contains unsupported character [email: ${email}]`;
  const at = email.indexOf('@');
  if (email.startsWith('-') || at <= 0 || email.length > 254) return `e-mail invalid [email: ${email}]`;
  return null;
}

/** Checks a website field: empty or an http(s) URL. @throws ValidationError */
export function validateWebsite(website: string | undefined): void {
  if (!website) return;
  let ok: boolean;
  try {
    const u = new URL(website);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) throw new ValidationError('Url', { field: 'website', rule: 'Url' });
}

/** Checks a maximum length (Gitea MaxSize binding). @throws ValidationError */
export function validateMaxSize(value: string | undefined, max: number, field: string): void {
  if (value !== undefined && [...value].length > max) throw new ValidationError('MaxSize', { field, rule: 'MaxSize' });
}
