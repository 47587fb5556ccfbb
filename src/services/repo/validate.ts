import { ValidationError } from '../../errors.ts';

// Gitea models/repo/repo.go: reservedRepoNames, reservedRepoPatterns.
const RESERVED_NAMES = new Set(['.', '..', '-']);
const RESERVED_PATTERNS = ['*.wiki', '*.git', '*.rss', '*.atom'];

/** Binding rules of a repository name: Required, AlphaDashDot, MaxSize(100). @throws ValidationError */
export function validateRepoNameSyntax(name: string, field = 'name'): void {
  if (!name) throw new ValidationError('Required', { field, rule: 'Required' });
  if (!/^[\w.-]+$/.test(name)) throw new ValidationError('AlphaDashDot', { field, rule: 'AlphaDashDot' });
  if ([...name].length > 100) throw new ValidationError('MaxSize', { field, rule: 'MaxSize' });
}

/**
 * Gitea IsUsableRepoName: reserved names and patterns (422 `name is reserved [name: …]`,
 * `name pattern is not allowed [pattern: …]`). A name containing `..` is refused too (Gitea answers 500).
 * @throws ValidationError
 */
export function validateRepoNameUsable(name: string): void {
  const lower = name.trim().toLowerCase();
  if (RESERVED_NAMES.has(lower)) throw new ValidationError(`name is reserved [name: ${lower}]`, { name });
  for (const pattern of RESERVED_PATTERNS) {
    if (lower.endsWith(pattern.slice(1))) throw new ValidationError(`name pattern is not allowed [pattern: ${pattern}]`, { name });
  }
  if (lower.includes('..'))
    throw new ValidationError(`name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`, { name });
}

// Gitea modules/validation GitRefNamePatternInvalid + CheckGitRefAdditionalRulesValid.
// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const REF_INVALID = /[\u0000-\u001f\u007f ~^:?*[\\]/;

/** True when `name` is a valid git branch name (Gitea's GitRefName binding rule). */
export function isValidRefName(name: string): boolean {
  if (!name || REF_INVALID.test(name)) return false;
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  if (name.includes('..') || name.includes('//') || name.includes('@{') || name === '@') return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** The default branch of a new repository: GitRefName, MaxSize(100); empty → `main`. @throws ValidationError */
export function validateDefaultBranch(branch: string | undefined): string {
  if (!branch) return 'main';
  if (branch.length > 100) throw new ValidationError('MaxSize', { field: 'default_branch', rule: 'MaxSize' });
  if (!isValidRefName(branch)) throw new ValidationError('GitRefName', { field: 'default_branch', rule: 'GitRefName' });
  return branch;
}

/** `object_format_name`: '' → sha1; sha1 or sha256. @throws ValidationError */
export function validateObjectFormat(name: string | undefined): 'sha1' | 'sha256' {
  if (!name || name === 'sha1') return 'sha1';
  if (name === 'sha256') return 'sha256';
  if (name.length > 6) throw new ValidationError('MaxSize', { field: 'object_format_name', rule: 'MaxSize' });
  throw new ValidationError(`unsupported object format: ${name}, supported: [sha1 sha256]`, { field: 'object_format_name' });
}
