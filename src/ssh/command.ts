// What an SSH client asks to run (`git-upload-pack '/owner/repo.git'`), read as Gitea's `serv` reads it.
import type { GitService } from '../git/spawnService.ts';

/** A git command over SSH, or why it is refused (Gitea's serv texts). */
export type SshCommand = { ok: true; service: GitService; owner: string; name: string } | { ok: false; message: string };

/** The commands the server runs (Gitea's allowedCommands, without LFS). */
const SERVICES: Readonly<Record<string, GitService>> = {
  'git-upload-pack': 'upload-pack',
  'git-receive-pack': 'receive-pack',
  'git-upload-archive': 'upload-archive',
};

/** Gitea's alphaDashDotPattern: a repository name is ASCII letters, digits, `_`, `-` and `.`. */
const REPO_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Splits a command line into words as a POSIX shell does (Gitea uses go-shellquote): blanks separate words,
 * single quotes keep everything, double quotes keep all but `\\`, `\"`, `\$` and `` \` `` escapes, a backslash
 * outside quotes escapes the next character. Null for an unterminated quote.
 */
export function shellWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < line.length && line.charAt(i) !== '"'; i++) {
        const n = line.charAt(i + 1);
        if (line.charAt(i) === '\\' && (n === '\\' || n === '"' || n === '$' || n === '`')) text += line.charAt(++i);
        else text += line.charAt(i);
      }
      if (i >= line.length) return null;
      word = (word ?? '') + text;
    } else if (c === '\\') {
      if (i + 1 < line.length) word = (word ?? '') + line.charAt(++i);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * Reads an exec request as Gitea's serv does: one of the three git commands and `owner/name` (a leading `/` and
 * a `.git` suffix optional; names are matched case-insensitively later). The command is checked first, so any
 * other program is refused as an unknown command whatever its arguments.
 */
export function parseSshCommand(command: string): SshCommand {
  const words = shellWords(command);
  if (!words) return { ok: false, message: 'Error parsing arguments' };
  const service = SERVICES[words[0] ?? ''];
  if (!service) return { ok: false, message: 'Unknown git command' };
  const repoPath = words[1];
  if (repoPath === undefined) return { ok: false, message: 'Too few arguments' };
  const path = repoPath.replace(/^\//, '');
  const slash = path.indexOf('/');
  if (slash <= 0) return { ok: false, message: 'Invalid repository path' };
  const owner = path.slice(0, slash);
  const name = path.slice(slash + 1).replace(/\.git$/, '');
  if (!REPO_NAME.test(name)) return { ok: false, message: 'Invalid repo name' };
  return { ok: true, service, owner, name };
}
