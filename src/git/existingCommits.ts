import { runGitResult } from './run.ts';

/**
 * Which of `candidates` (full or abbreviated commit ids) name a commit of the repository, in one
 * `git cat-file --batch-check`; an ambiguous abbreviation, another kind of object or a missing repository names none.
 */
export async function existingCommits(gitDir: string, candidates: readonly string[]): Promise<Set<string>> {
  const wanted = candidates.filter((c) => /^[0-9a-f]{4,64}$/.test(c));
  if (!wanted.length) return new Set();
  const input = wanted.map((c) => `${c}^{commit}\n`).join('');
  const r = await runGitResult(gitDir, ['cat-file', '--batch-check=%(objecttype)'], { input }).catch(() => null);
  if (r?.code !== 0) return new Set();
  const lines = r.stdout.toString('utf8').split('\n');
  return new Set(wanted.filter((_, i) => lines[i] === 'commit'));
}
