import { runGitResult } from './run.ts';

/** Where git keeps the notes `git notes` reads and writes by default. */
const NOTES_REF = 'refs/notes/commits';

/** A commit's note: its text and the commit of the notes ref that last changed it. */
export interface GitNote {
  message: Buffer;
  /** The commit of `refs/notes/commits` that last wrote this note (Gitea's Note.Commit). */
  noteCommit: string;
}

/** The paths a note of `sha` may have in the notes tree: git fans notes out into 2-hex directories as they grow. */
function notePaths(sha: string): string[] {
  const paths: string[] = [];
  for (let depth = 0; depth * 2 < sha.length - 2 && depth <= 3; depth++) {
    const dirs = Array.from({ length: depth }, (_, i) => sha.slice(i * 2, i * 2 + 2));
    paths.push([...dirs, sha.slice(depth * 2)].join('/'));
  }
  return paths;
}

/**
 * The note `refs/notes/commits` holds for commit `sha` (a full id), with the notes commit that last touched it
 * (as Gitea's git.GetNote); null when the repository has no notes or none for that commit.
 */
export async function readNote(gitDir: string, sha: string): Promise<GitNote | null> {
  const shown = await runGitResult(gitDir, ['notes', '--ref', NOTES_REF, 'show', '--end-of-options', sha]);
  if (shown.code !== 0) return null;
  const last = await runGitResult(gitDir, ['log', '-1', '--format=%H', NOTES_REF, '--', ...notePaths(sha)]);
  const noteCommit = last.code === 0 ? last.stdout.toString('utf8').trim() : '';
  if (!noteCommit) return null;
  return { message: shown.stdout, noteCommit };
}
