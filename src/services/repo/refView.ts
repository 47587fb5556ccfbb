// GitHub's Ref as the services hand it out: a branch (its Branch row) or a tag (git), and how a list of them is
// filtered and ordered (Repository.refs' query, orderBy and direction).
import type { Models } from '../../db/client.ts';
import type { TagInfo } from '../../git/listTags.ts';
import type { GitRepoKey } from './gitObject.ts';

/** The prefix of branches. */
export const HEADS = 'refs/heads/';
/** The prefix of tags. */
export const TAGS = 'refs/tags/';

/** What a ref's repository must give: where its git data lives. */
export const REF_REPO_SELECT = { id: true, ownerName: true, name: true, isEmpty: true } as const;

/** A branch or a tag of a repository. */
export interface RefView {
  repo: GitRepoKey;
  prefix: typeof HEADS | typeof TAGS;
  /** The short name (`main`, `v1.0`). */
  name: string;
  /** The ref's value: a branch's commit; a tag's tag object (annotated) or commit (lightweight). */
  oid: string;
  /** The commit the ref resolves to. */
  commit: string;
  commitMessage: string;
  commitDate: Date;
  /** The Branch row of a branch (its node id); null for a tag. */
  branchId: number | null;
}

/** A Branch row (with its repository) as a ref. */
export function branchRefView(b: Models.Branch & { repo: GitRepoKey }): RefView {
  return {
    repo: b.repo,
    prefix: HEADS,
    name: b.name,
    oid: b.commitId,
    commit: b.commitId,
    commitMessage: b.commitMessage,
    commitDate: b.commitTime,
    branchId: b.id,
  };
}

/** A tag read from git as a ref. */
export function tagRefView(repo: GitRepoKey, t: TagInfo): RefView {
  return {
    repo,
    prefix: TAGS,
    name: t.name,
    oid: t.id,
    commit: t.commit,
    commitMessage: t.commitMessage,
    commitDate: new Date(t.commitDate),
    branchId: null,
  };
}

/** GitHub's RefOrderField. */
export type RefOrderField = 'ALPHABETICAL' | 'TAG_COMMIT_DATE';

/** How Repository.refs filters and orders. */
export interface RefListOptions {
  /** Keeps the refs whose short name contains it (case-insensitive). */
  query?: string;
  order: RefOrderField;
  direction: 'ASC' | 'DESC';
}

const byName = (a: RefView, b: RefView): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byCommitDate = (a: RefView, b: RefView): number => a.commitDate.getTime() - b.commitDate.getTime() || byName(a, b);

/**
 * The refs `options` keep, in its order: names compared by code unit (the same on both databases), or by the date
 * of the commit each ref resolves to (GitHub's TAG_COMMIT_DATE; branches too), names breaking ties.
 */
export function arrangeRefs(refs: readonly RefView[], options: RefListOptions): RefView[] {
  const query = options.query?.toLowerCase();
  const kept = query ? refs.filter((r) => r.name.toLowerCase().includes(query)) : [...refs];
  kept.sort(options.order === 'TAG_COMMIT_DATE' ? byCommitDate : byName);
  return options.direction === 'DESC' ? kept.reverse() : kept;
}
