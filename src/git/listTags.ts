// Lists tags with what Gitea's Tag JSON needs, newest first (git for-each-ref).
import { runGit } from './run.ts';

/** One tag: its ref value (`id`: tag object or commit), the commit it peels to, and its message and date. */
export interface TagInfo {
  name: string;
  /** The ref's value: the tag object of an annotated tag, the commit of a lightweight one. */
  id: string;
  /** The commit the tag points at (peeled). */
  commit: string;
  annotated: boolean;
  /** The tag message (annotated), or the commit message (lightweight), as Gitea. */
  message: string;
  /** Tagger date (annotated) or committer date (lightweight), ISO 8601 with offset. */
  date: string;
  /** The committer date of the commit the tag points at, ISO 8601 with offset. */
  commitDate: string;
  /** The message of the commit the tag points at. */
  commitMessage: string;
}

const SEP = '\x1f';
const END = '\x1e';
// %(contents) is the tag message of a tag object and the commit message of a commit (a lightweight tag).
const FORMAT =
  [
    '%(refname:strip=2)',
    '%(objectname)',
    '%(objecttype)',
    '%(*objectname)',
    '%(*objecttype)',
    '%(creatordate:iso-strict)',
    '%(committerdate:iso-strict)',
    '%(*committerdate:iso-strict)',
    '%(contents)',
    '%(*contents)',
  ].join(SEP) + END;

function parse(out: string): Array<TagInfo & { isCommit: boolean }> {
  return out
    .split(END)
    .map((rec) => rec.replace(/^\n/, ''))
    .filter(Boolean)
    .map((rec) => {
      const [
        name = '',
        id = '',
        type = '',
        peeled = '',
        peeledType = '',
        date = '',
        ownDate = '',
        peeledDate = '',
        message = '',
        peeledMessage = '',
      ] = rec.split(SEP);
      const annotated = type === 'tag';
      return {
        name,
        id,
        commit: annotated ? peeled : id,
        annotated,
        message,
        date,
        commitDate: annotated ? peeledDate : ownDate,
        commitMessage: annotated ? peeledMessage : message,
        isCommit: annotated ? peeledType === 'commit' : type === 'commit',
      };
    });
}

/**
 * Tags pointing at commits, newest first (Gitea sorts by -creatordate), with the total; `names` restricts to
 * those exact tags.
 */
export async function listTags(
  gitDir: string,
  opts: { names?: readonly string[]; skip?: number; take?: number } = {},
): Promise<{ items: TagInfo[]; total: number }> {
  if (opts.names && !opts.names.length) return { items: [], total: 0 };
  const patterns = opts.names ? opts.names.map((n) => `refs/tags/${n}`) : ['refs/tags'];
  const out = (
    await runGit(gitDir, ['for-each-ref', '--sort=-creatordate', `--format=${FORMAT}`, '--end-of-options', ...patterns])
  ).toString('utf8');
  const wanted = opts.names ? new Set(opts.names) : null;
  const all = parse(out).filter((t) => t.isCommit && (!wanted || wanted.has(t.name)));
  const skip = opts.skip ?? 0;
  const page = all.slice(skip, opts.take === undefined ? undefined : skip + opts.take);
  return { items: page.map(({ isCommit: _isCommit, ...t }) => t), total: all.length };
}
