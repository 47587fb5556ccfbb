import { parseCommitRecords, REF_FORMAT, type CommitInfo } from './commitInfo.ts';
import { runGit } from './run.ts';

/** A branch and its head commit. */
export interface BranchHead {
  name: string;
  commit: CommitInfo;
}

/**
 * Every branch with its head commit, newest commit first (then by name), in one `for-each-ref`.
 * With `name`, only that exact branch (an empty list when it does not exist).
 */
export async function listBranches(gitDir: string, name?: string): Promise<BranchHead[]> {
  const pattern = name === undefined ? 'refs/heads/' : `refs/heads/${name}`;
  const out = await runGit(gitDir, ['for-each-ref', '--sort=refname', '--sort=-committerdate', `--format=${REF_FORMAT}`, pattern]);
  const heads = parseCommitRecords(out.toString('utf8'), true).map((r) => ({ name: r.ref.slice('refs/heads/'.length), commit: r.commit }));
  return name === undefined ? heads : heads.filter((h) => h.name === name);
}
