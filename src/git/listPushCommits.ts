import { runGit } from './run.ts';

/** One commit as Gitea's feed stores it (repository.PushCommit). */
export interface PushCommit {
  Sha1: string;
  Message: string;
  AuthorEmail: string;
  AuthorName: string;
  CommitterEmail: string;
  CommitterName: string;
  Timestamp: string;
}

const ZERO = /^0+$/;

/**
 * The newest commits a ref update brought (at most `max`), newest first, and how many there were:
 * `old..new`, or for a new ref the commits not reachable from any other branch.
 */
export async function listPushCommits(
  gitDir: string,
  ref: string,
  oldSha: string,
  newSha: string,
  max = 5,
): Promise<{ commits: PushCommit[]; total: number }> {
  const range = ZERO.test(oldSha) ? [newSha, '--not', `--exclude=${ref}`, '--branches'] : [`${oldSha}..${newSha}`];
  const [countOut, logOut] = await Promise.all([
    run(gitDir, ['rev-list', '--count', ...range]),
    run(gitDir, ['log', `--max-count=${max}`, '--format=%H%x00%an%x00%ae%x00%cn%x00%ce%x00%cI%x00%B%x1e', ...range]),
  ]);
  const commits = logOut
    .split('\x1e')
    .map((s) => s.replace(/^\n/, ''))
    .filter(Boolean)
    .map((rec) => {
      const [sha = '', an = '', ae = '', cn = '', ce = '', ts = '', msg = ''] = rec.split('\0');
      return {
        Sha1: sha,
        Message: msg.replace(/\n+$/, '\n'),
        AuthorEmail: ae,
        AuthorName: an,
        CommitterEmail: ce,
        CommitterName: cn,
        Timestamp: ts,
      };
    });
  return { commits, total: Number.parseInt(countOut.trim(), 10) || commits.length };
}

async function run(gitDir: string, args: string[]): Promise<string> {
  return (await runGit(gitDir, args)).toString('utf8');
}
