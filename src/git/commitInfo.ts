import { runGit } from './run.ts';

/** A signature as Gitea shows it (time in RFC 3339, in the signer's zone). */
export interface GitSignature {
  name: string;
  email: string;
  when: string;
}

/** What the API shows of a commit. */
export interface CommitInfo {
  sha: string;
  message: string;
  author: GitSignature;
  committer: GitSignature;
}

const SEP = '%x00';
const END = '%x1e';

/** The fields of a commitInfo record, as `git log` placeholders joined by NUL. */
export const LOG_FIELDS = ['%H', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join(SEP);
/** `git log` format of commitInfo records. */
export const LOG_FORMAT = LOG_FIELDS + END;
/** `git for-each-ref` format (its hex escapes are `%00`, not `%x00`) of a ref name followed by a commitInfo record. */
export const REF_FORMAT =
  [
    '%(refname)',
    '%(objectname)',
    '%(authorname)',
    '%(authoremail:trim)',
    '%(authordate:iso-strict)',
    '%(committername)',
    '%(committeremail:trim)',
    '%(committerdate:iso-strict)',
    '%(contents)',
  ].join('%00') + '%1e';

/** Go prints a zero offset as `Z`. */
function goTime(iso: string): string {
  return iso.replace(/\+00:00$/, 'Z');
}

/** Parses records written with LOG_FORMAT (or REF_FORMAT when `withRef`). */
export function parseCommitRecords(out: string, withRef: boolean): Array<{ ref: string; commit: CommitInfo }> {
  return out
    .split('\x1e')
    .map((rec) => rec.replace(/^\n/, ''))
    .filter(Boolean)
    .map((rec) => {
      const f = rec.split('\0');
      const ref = withRef ? (f.shift() ?? '') : '';
      const [sha = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', msg = ''] = f;
      return {
        ref,
        commit: {
          sha,
          message: msg,
          author: { name: an, email: ae, when: goTime(ad) },
          committer: { name: cn, email: ce, when: goTime(cd) },
        },
      };
    });
}

/** Reads several commits at once (`git show -s`), in the given order; unknown shas make it throw. */
export async function readCommitInfos(gitDir: string, shas: readonly string[]): Promise<CommitInfo[]> {
  if (!shas.length) return [];
  const out = await runGit(gitDir, ['show', '-s', '--no-walk=unsorted', `--format=${LOG_FORMAT}`, ...shas, '--']);
  return parseCommitRecords(out.toString('utf8'), false).map((r) => r.commit);
}

/** The last commit at or before `commit` that touched `path` (root when empty), or null. */
export async function lastCommitFor(gitDir: string, commit: string, path: string): Promise<CommitInfo | null> {
  const out = await runGit(gitDir, ['log', '-1', `--format=${LOG_FORMAT}`, commit, '--', ...(path ? [path] : [])]);
  return parseCommitRecords(out.toString('utf8'), false)[0]?.commit ?? null;
}
