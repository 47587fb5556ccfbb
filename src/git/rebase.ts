import { NotFoundError } from '../errors.ts';
import { openCommitWriter, type CommitWriter } from './commitWriter.ts';
import { identityEnv, type GitIdentity } from './identity.ts';
import { mergeTree, type MergeRefusal } from './mergeTree.ts';
import { readRawCommits } from './rawCommit.ts';
import { runGit } from './run.ts';

/** The identity of the throw-away commits the rebase uses as merge-tree's "ours" (constant, so they dedupe). */
const STAND_IN_IDENT = 'Forgegraph <forgegraph@localhost> 0 +0000';

/** The rebased tip and its tree, or why the replay stopped. */
export type RebaseResult =
  { status: 'rebased'; sha: string; tree: string } | Exclude<MergeRefusal, { status: 'not-fast-forward' | 'already-merged' }>;

/**
 * Replays head's commits onto `onto` as `git rebase` does, without a work tree: the commits of `onto...head`
 * on head's side, oldest first, minus merges and minus commits whose change `onto` already has (patch-id,
 * `--cherry-pick`). Leading commits already on `onto` are kept as they are (no rewrite when head is up to
 * date); a commit that becomes empty is dropped. Each replay is a three-way merge whose base is the commit's
 * parent: git 2.39 has no `merge-tree --merge-base` (2.40), so "ours" is a stand-in commit with the current
 * tree and that parent, making the parent the only merge base. Rebased commits keep their author line, message
 * and encoding byte for byte (a signature is dropped, as git does); the committer is `committer`. Commits are
 * written through one long-lived `hash-object` (see openCommitWriter), so each replay spawns only merge-tree.
 */
export async function rebaseOnto(gitDir: string, onto: string, head: string, committer: GitIdentity): Promise<RebaseResult> {
  const listed = await runGit(gitDir, [
    'rev-list',
    '--reverse',
    '--topo-order',
    '--right-only',
    '--cherry-pick',
    '--no-merges',
    '--end-of-options',
    `${onto}...${head}`,
    '--',
  ]);
  const picks = listed.toString('utf8').split('\n').filter(Boolean);
  const raw = await readRawCommits(gitDir, [onto, ...picks]);
  const parentsToRead = picks.map((p) => raw.get(p)?.parents[0]).filter((p): p is string => p !== undefined && !raw.has(p));
  for (const [sha, commit] of await readRawCommits(gitDir, [...new Set(parentsToRead)])) raw.set(sha, commit);
  const ident = (await runGit(gitDir, ['var', 'GIT_COMMITTER_IDENT'], { env: identityEnv('COMMITTER', committer) }))
    .toString('utf8')
    .trim();

  let tip = onto;
  let tipTree = raw.get(onto)?.tree ?? '';
  let writer: CommitWriter | null = null;
  try {
    for (const sha of picks) {
      const commit = raw.get(sha);
      const parent = commit?.parents[0];
      if (!commit) throw new NotFoundError(`commit does not exist [${sha}]`, { sha });
      if (parent === undefined) return { status: 'unrelated-histories' };
      if (parent === tip) {
        tip = sha;
        tipTree = commit.tree;
        continue;
      }
      writer ??= await openCommitWriter(gitDir);
      const ours = await writer.write(
        Buffer.from(`tree ${tipTree}\nparent ${parent}\nauthor ${STAND_IN_IDENT}\ncommitter ${STAND_IN_IDENT}\n\nrebase stand-in\n`),
      );
      const m = await mergeTree(gitDir, ours, sha);
      if (m.status === 'conflict') return { status: 'conflict', files: m.files, commit: sha };
      if (m.status !== 'clean') return m;
      if (m.tree === tipTree && commit.tree !== raw.get(parent)?.tree) continue;
      tip = await writer.write(
        Buffer.concat([
          Buffer.from(`tree ${m.tree}\nparent ${tip}\n`),
          commit.authorLine,
          Buffer.from(`\ncommitter ${ident}\n`),
          ...(commit.encodingLine ? [commit.encodingLine, Buffer.from('\n')] : []),
          Buffer.from('\n'),
          commit.message,
        ]),
      );
      tipTree = m.tree;
    }
  } finally {
    await writer?.close();
  }
  return { status: 'rebased', sha: tip, tree: tipTree };
}
