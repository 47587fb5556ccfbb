// Names of Actions secrets and variables (Gitea services/secrets/validation.go, GitHub's rules): letters, digits
// and `_`, not starting with a digit nor with GITEA_/GITHUB_; stored upper-case, matched case-insensitively.
import { InvalidArgumentError } from '../../errors.ts';

const NAME = /^[A-Z_][A-Z0-9_]*$/i;
const FORBIDDEN_PREFIX = /^GIT(EA|HUB)_/i;

/** The stored form of a valid name. @throws InvalidArgumentError "invalid secret name" (Gitea's text, variables too) */
export function settingName(name: string): string {
  if (!NAME.test(name) || FORBIDDEN_PREFIX.test(name)) throw new InvalidArgumentError('invalid secret name');
  return name.toUpperCase();
}

/** Gitea ReserveLineBreakForTextarea: CRLF line endings become LF. */
export const normalizeLineBreaks = (text: string): string => text.replace(/\r\n/g, '\n');
