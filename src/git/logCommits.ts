// A page of a history (`git log`) with its total (`git rev-list --count`): the commits list of the API.
import type { CompareCommit } from './compare.ts';
import { LOG_FORMAT, parseCommitRecords } from './commitInfo.ts';
import { assertRevision } from './revision.ts';
import { runGitOrNotFound } from './run.ts';

/** Which history: commits reachable from `head`, not from `not`, touching `path`, in a time window. */
export interface LogQuery {
  head: string;
  not?: readonly string[];
  path?: string;
  since?: Date;
  until?: Date;
  /** Only commits whose author's name or e-mail contains one of these (fixed strings, any case). */
  authors?: readonly string[];
  skip: number;
  limit: number;
}

/**
 * The window `[skip, skip + limit)` of the history, newest first, and how many commits it has in all.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function logCommits(gitDir: string, q: LogQuery): Promise<{ total: number; commits: CompareCommit[] }> {
  assertRevision(q.head);
  for (const n of q.not ?? []) assertRevision(n);
  // Git's own `@<seconds> <zone>` form: a bare `@<seconds>` past 2100 falls to approxidate, which ignores it.
  const at = (d: Date) => `@${Math.floor(d.getTime() / 1000)} +0000`;
  const authors = q.authors?.length ? ['--fixed-strings', '--regexp-ignore-case', ...q.authors.map((a) => `--author=${a}`)] : [];
  const filters = [...(q.since ? [`--since=${at(q.since)}`] : []), ...(q.until ? [`--until=${at(q.until)}`] : []), ...authors];
  const revs = ['--end-of-options', q.head, ...(q.not ?? []).map((n) => `^${n}`), '--', ...(q.path ? [q.path] : [])];
  const what = `object does not exist [id: ${q.head}, rel_path: ]`;
  const [count, log] = await Promise.all([
    runGitOrNotFound(gitDir, ['rev-list', '--count', ...filters, ...revs], what),
    runGitOrNotFound(
      gitDir,
      ['log', ...filters, `--skip=${q.skip}`, `--max-count=${q.limit}`, `--format=%T %P%x00${LOG_FORMAT}`, ...revs],
      what,
    ),
  ]);
  const commits = parseCommitRecords(log.toString('utf8'), true).map(({ ref, commit }) => {
    const [tree = '', ...parents] = ref.trim().split(' ');
    return { ...commit, tree, parents };
  });
  return { total: Number.parseInt(count.toString('utf8').trim(), 10) || 0, commits };
}
