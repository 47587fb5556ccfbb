// Refs with their object type (`git for-each-ref`), for the git refs API.
import { runGit } from './run.ts';

/** A ref, the object it points at and that object's type (commit, or tag for annotated tags). */
export interface GitRef {
  ref: string;
  sha: string;
  type: string;
}

/** Every ref under `prefix` (a full prefix such as `refs/` or `refs/heads/ma`), sorted by name. */
export async function listRefs(gitDir: string, prefix: string): Promise<GitRef[]> {
  const out = (await runGit(gitDir, ['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)'])).toString('utf8');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', type = '', ...rest] = line.split(' ');
      return { sha, type, ref: rest.join(' ') };
    })
    .filter((r) => r.ref.startsWith(prefix));
}
