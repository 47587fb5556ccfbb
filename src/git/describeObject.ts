import { runGit } from './run.ts';

/** An object named by a revision expression (`main`, `v1.0:docs`, `HEAD:README.md`, a sha). */
export interface ObjectHeader {
  sha: string;
  type: 'commit' | 'tree' | 'blob' | 'tag';
  size: number;
}

/**
 * Resolves a revision expression to an object without reading it (`git cat-file --batch-check`; the
 * expression goes through stdin, so it can never be taken for an option). Null when it names nothing.
 */
export async function describeObject(gitDir: string, expression: string): Promise<ObjectHeader | null> {
  if (!expression || /[\n\0]/.test(expression)) return null;
  const out = (await runGit(gitDir, ['cat-file', '--batch-check'], { input: `${expression}\n` })).toString('utf8').trim();
  const [sha = '', type = '', size = ''] = out.split(' ');
  if (type !== 'commit' && type !== 'tree' && type !== 'blob' && type !== 'tag') return null;
  return { sha, type, size: Number(size) };
}
