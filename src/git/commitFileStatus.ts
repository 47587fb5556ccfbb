import { LOG_FIELDS, parseCommitRecords, type CommitInfo } from './commitInfo.ts';
import { runGit } from './run.ts';

/** The paths a commit added, removed and modified against its first parent (Gitea CommitFileStatus). */
export interface CommitFileStatus {
  added: string[];
  removed: string[];
  modified: string[];
}

/** A commit with its file status. */
export type CommitWithFiles = CommitInfo & { files: CommitFileStatus };

/**
 * Several commits with the paths each changed, in one `git show` for all of them (in the given order; unknown
 * shas make it throw). As Gitea's GetCommitFileStatus: against the first parent (a root commit adds its whole
 * tree), renames as a removal and an addition, and only A/D/M statuses (a type change is listed nowhere).
 */
export async function readCommitsWithFiles(gitDir: string, shas: readonly string[]): Promise<CommitWithFiles[]> {
  if (!shas.length) return [];
  // Each record: \x1e, the commitInfo fields, \x1d, then (with -z) NUL-separated "<status>\0<path>" pairs.
  const out = await runGit(gitDir, [
    'show',
    '--no-walk=unsorted',
    `--format=%x1e${LOG_FIELDS}%x1d`,
    '--name-status',
    '--diff-merges=first-parent',
    '--no-renames',
    '-z',
    ...shas,
    '--',
  ]);
  return out
    .toString('utf8')
    .split('\x1e')
    .filter(Boolean)
    .flatMap((record) => {
      const cut = record.indexOf('\x1d');
      const commit = parseCommitRecords(cut < 0 ? record : record.slice(0, cut), false)[0]?.commit;
      if (!commit) return [];
      const files: CommitFileStatus = { added: [], removed: [], modified: [] };
      const fields =
        cut < 0
          ? []
          : record
              .slice(cut + 1)
              .replace(/^\0?\n?/, '')
              .split('\0');
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const path = fields[i + 1]!;
        const status = fields[i]![0];
        if (status === 'A') files.added.push(path);
        else if (status === 'D') files.removed.push(path);
        else if (status === 'M') files.modified.push(path);
      }
      return [{ ...commit, files }];
    });
}
