// Per-request loaders of refs (GitHub's Ref): branches from their rows through the read policy of branches, tags
// from git where the viewer reads the code (as GET …/branches and GET …/tags); lists, names and node ids, batched.
import DataLoader from 'dataloader';
import { isValidTagName } from '../../git/createTag.ts';
import { listTags } from '../../git/listTags.ts';
import { repoPath } from '../../git/repoPath.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import type { GitRepoKey } from './gitObject.ts';
import { arrangeRefs, branchRefView, HEADS, REF_REPO_SELECT, TAGS, tagRefView, type RefListOptions, type RefView } from './refView.ts';
import { branchReadWhere, repoReadWhere } from './visibility.ts';
import { groupBy } from '../../groupBy.ts';

/** A branch of a repository, by name. */
export interface BranchKey {
  repoId: number;
  name: string;
}

/** A ref of a repository by short name. */
interface TagKey {
  repo: GitRepoKey;
  name: string;
}

/** One Repository.refs list. */
export interface RefListKey {
  repo: GitRepoKey;
  refPrefix: string;
  options: RefListOptions;
}

/** The request's ref loaders. */
export interface RefLoaders {
  /** Live branches by repository and name; null when absent or unreadable. */
  branches: DataLoader<BranchKey, RefView | null, string>;
  /** Tags by repository and name; null when absent or the code is unreadable. */
  tags: DataLoader<TagKey, RefView | null, string>;
  /** A repository's branches (`refs/heads/`) or tags (`refs/tags/`), filtered and ordered; none for another prefix. */
  lists: DataLoader<RefListKey, RefView[], string>;
}

/** The tags of a repository whose code the viewer reads (all, or those `names`); none otherwise. */
async function readableTags(cx: ServiceContext, repo: GitRepoKey, names?: readonly string[]): Promise<RefView[]> {
  if (repo.isEmpty || !canRead(await cx.loaders.repoPermission.load(repo.id), 'CODE')) return [];
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const { items } = await listTags(gitDir, names ? { names: names.filter(isValidTagName) } : {});
  return items.map((t) => tagRefView(repo, t));
}

/** Per request: the ref loaders; each asks one query (branches) or one git listing per repository (tags) a tick. */
export function refLoaders(cx: ServiceContext): RefLoaders {
  const branches = new DataLoader(
    async (keys: readonly BranchKey[]) => {
      const rows = await cx.db.branch.findMany({
        where: { AND: [{ isDeleted: false }, branchReadWhere(cx), { OR: keys.map((k) => ({ repoId: k.repoId, name: k.name })) }] },
        include: { repo: { select: REF_REPO_SELECT } },
      });
      const byKey = new Map(rows.map((b) => [`${b.repoId}\0${b.name}`, branchRefView(b)]));
      return keys.map((k) => byKey.get(`${k.repoId}\0${k.name}`) ?? null);
    },
    { cacheKeyFn: (k: BranchKey) => `${k.repoId}\0${k.name}` },
  );
  const tags = new DataLoader(
    async (keys: readonly TagKey[]) => {
      const found = new Map<string, RefView>();
      for (const group of groupBy(keys, (k) => k.repo.id).values()) {
        const repo = group[0]!.repo;
        for (const tag of await readableTags(cx, repo, [...new Set(group.map((k) => k.name))])) found.set(`${repo.id}\0${tag.name}`, tag);
      }
      return keys.map((k) => found.get(`${k.repo.id}\0${k.name}`) ?? null);
    },
    { cacheKeyFn: (k: TagKey) => `${k.repo.id}\0${k.name}` },
  );
  const lists = new DataLoader(
    async (keys: readonly RefListKey[]) => {
      const branchRepoIds = [...new Set(keys.filter((k) => k.refPrefix === HEADS).map((k) => k.repo.id))];
      const rows = branchRepoIds.length
        ? await cx.db.branch.findMany({ where: { AND: [{ isDeleted: false, repoId: { in: branchRepoIds } }, branchReadWhere(cx)] } })
        : [];
      const branchesOf = groupBy(rows, (b) => b.repoId);
      const tagsOf = new Map<number, Promise<RefView[]>>();
      return Promise.all(
        keys.map(async (k) => {
          if (k.refPrefix === HEADS)
            return arrangeRefs(
              (branchesOf.get(k.repo.id) ?? []).map((b) => branchRefView({ ...b, repo: k.repo })),
              k.options,
            );
          if (k.refPrefix !== TAGS) return [];
          let all = tagsOf.get(k.repo.id);
          if (!all) tagsOf.set(k.repo.id, (all = readableTags(cx, k.repo)));
          return arrangeRefs(await all, k.options);
        }),
      );
    },
    {
      cacheKeyFn: (k: RefListKey) => JSON.stringify([k.repo.id, k.refPrefix, k.options.query ?? '', k.options.order, k.options.direction]),
    },
  );
  return { branches, tags, lists };
}

/**
 * A ref by name (GitHub's Repository.ref): `refs/heads/x` a branch, `refs/tags/x` a tag, and a short name the
 * branch of that name, else the tag; null when there is none the viewer may read.
 */
export async function findRef(loaders: RefLoaders, repo: GitRepoKey, qualifiedName: string): Promise<RefView | null> {
  if (qualifiedName.startsWith(TAGS)) return loaders.tags.load({ repo, name: qualifiedName.slice(TAGS.length) });
  if (qualifiedName.startsWith(HEADS)) return loaders.branches.load({ repoId: repo.id, name: qualifiedName.slice(HEADS.length) });
  return (await loaders.branches.load({ repoId: repo.id, name: qualifiedName })) ?? loaders.tags.load({ repo, name: qualifiedName });
}

/** The key of a ref's node id: a branch's row id, or `<repository id>:refs/tags/<name>` for a tag. */
export function refNodeKey(ref: RefView): string {
  return ref.branchId !== null ? String(ref.branchId) : `${ref.repo.id}:${TAGS}${ref.name}`;
}

const TAG_KEY = /^(\d{1,10}):refs\/tags\/(.+)$/s;

/**
 * Refs by node key (node(id:)): branches by row id through the read policy of branches, tags through the repository
 * read policy with the code unit (one query each), null for what the viewer may not read or that is gone.
 */
export async function refsByNodeKey(cx: ServiceContext, loaders: RefLoaders, keys: readonly string[]): Promise<(RefView | null)[]> {
  const branchIds = keys.filter((k) => /^\d{1,10}$/.test(k)).map(Number);
  const tagKeys = keys.map((k) => TAG_KEY.exec(k)).filter((m) => m !== null);
  const [rows, repos] = await Promise.all([
    branchIds.length
      ? cx.db.branch.findMany({
          where: { id: { in: branchIds }, isDeleted: false, AND: [branchReadWhere(cx)] },
          include: { repo: { select: REF_REPO_SELECT } },
        })
      : [],
    tagKeys.length
      ? cx.db.repository.findMany({
          where: { id: { in: [...new Set(tagKeys.map((m) => Number(m[1])))] }, AND: [repoReadWhere(cx, ['CODE'])] },
          select: REF_REPO_SELECT,
        })
      : [],
  ]);
  const branchById = new Map(rows.map((b) => [String(b.id), branchRefView(b)]));
  const repoById = new Map(repos.map((r) => [r.id, r]));
  return Promise.all(
    keys.map((k) => {
      const branch = branchById.get(k);
      if (branch) return branch;
      const m = TAG_KEY.exec(k);
      const repo = m ? repoById.get(Number(m[1])) : undefined;
      return repo && m?.[2] ? loaders.tags.load({ repo, name: m[2] }) : null;
    }),
  );
}
