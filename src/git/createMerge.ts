import { mergeBase } from './compare.ts';
import { commitTree } from './commitTree.ts';
import { identityEnv, type GitIdentity } from './identity.ts';
import { mergeTree, type MergeRefusal } from './mergeTree.ts';
import { rebaseOnto } from './rebase.ts';
import { resolveCommits } from './resolveCommits.ts';
import { assertRevision, SHA } from './revision.ts';

/** Gitea's merge styles (`Do` of POST …/pulls/{index}/merge; Gitea's `manually-merged` involves no git). */
export type MergeStyle = 'merge' | 'rebase' | 'rebase-merge' | 'squash' | 'fast-forward-only';

/** What `createMerge` needs. Commits are given by sha (or ref name); nothing is updated. */
export interface MergeInput {
  style: MergeStyle;
  /** The base branch tip. */
  base: string;
  /** The pull request head. */
  head: string;
  /** Author of the merge or squash commit (Gitea: the merger, or the poster for squash); unused by `rebase`. */
  author: GitIdentity;
  /** Committer of every new commit, rebased ones included (Gitea: the merger). */
  committer: GitIdentity;
  /** Message of the merge or squash commit; unused by `rebase` (commits keep theirs). */
  message: string;
  /**
   * `base` and `head` are full ids read from branch refs (a branch names a commit: receive-pack refuses anything
   * else): they are not resolved again (one `git cat-file` less per merge).
   */
  tips?: boolean;
}

/** The commit the base branch should move to, or why there is none. */
export type MergeOutcome = { status: 'merged'; sha: string; mergeBase: string } | MergeRefusal;

/**
 * Computes the commit a pull request merge moves the base branch to, in the bare repository and without a
 * work tree, in Gitea's styles:
 * - `merge`: a merge commit (parents base, head; always, like `--no-ff`) of the merge-tree result;
 * - `squash`: one commit whose only parent is base and whose tree is the merge result;
 * - `rebase`: head's commits replayed onto base (see `rebaseOnto`); base then fast-forwards to the last one;
 * - `rebase-merge`: the rebase, then a merge commit of base and the rebased head;
 * - `fast-forward-only`: head itself, refused unless base is an ancestor of head.
 * Refusals (conflicts with the conflicted paths, not fast-forward, already merged, unrelated histories) are
 * results, not exceptions. Nothing is updated: move the branch with `updateRefCAS(base…)`.
 * @throws InvalidArgumentError for malformed revisions or identities; NotFoundError for unknown commits
 */
export async function createMerge(gitDir: string, input: MergeInput): Promise<MergeOutcome> {
  assertRevision(input.base);
  assertRevision(input.head);
  const env = { ...identityEnv('AUTHOR', input.author), ...identityEnv('COMMITTER', input.committer) };
  const message = input.message.endsWith('\n') || !input.message ? input.message : `${input.message}\n`;
  const [base = '', head = ''] =
    input.tips && SHA.test(input.base) && SHA.test(input.head)
      ? [input.base, input.head]
      : await resolveCommits(gitDir, [input.base, input.head]);
  const mb = await mergeBase(gitDir, base, head);
  if (mb === null) return { status: 'unrelated-histories' };
  if (mb === head) return { status: 'already-merged' };
  const merged = (sha: string): MergeOutcome => ({ status: 'merged', sha, mergeBase: mb });
  switch (input.style) {
    case 'fast-forward-only':
      return mb === base ? merged(head) : { status: 'not-fast-forward' };
    case 'merge':
    case 'squash': {
      const m = await mergeTree(gitDir, base, head);
      if (m.status === 'conflict') return { status: 'conflict', files: m.files, commit: null };
      if (m.status !== 'clean') return m;
      return merged(await commitTree(gitDir, m.tree, input.style === 'merge' ? [base, head] : [base], message, env));
    }
    case 'rebase':
    case 'rebase-merge': {
      const r = await rebaseOnto(gitDir, base, head, input.committer);
      if (r.status !== 'rebased') return r;
      if (r.sha === base) return { status: 'already-merged' };
      if (input.style === 'rebase') return merged(r.sha);
      return merged(await commitTree(gitDir, r.tree, [base, r.sha], message, env));
    }
  }
}
