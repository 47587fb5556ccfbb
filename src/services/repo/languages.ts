// Repository language statistics (GET /repos/{o}/{r}/languages): bytes per language of the default branch's
// tree, computed with the git CLI and cached in LanguageStat rows keyed by the commit; a default branch that
// moved is recomputed on the next read.
import type { Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { readRef } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { treeFileSizes } from '../../git/treeFileSizes.ts';
import { canRead, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireTokenScope } from '../access/guards.ts';
import { requireRepo, requireRepoAccess, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { languageSizes } from './languageDetect.ts';
import { repoReadWhere } from './visibility.ts';

/** One language of a repository and its size in bytes. */
export interface LanguageSize {
  language: string;
  size: number;
}

/** Gitea reqRepoReader(unit.TypeCode). */
function requireCodeRead(access: RepoAccess): void {
  if (!canRead(access.perm, 'CODE') && !isRepoAdmin(access.perm)) {
    throw new PermissionDeniedError('user should have specific read permission or be a repo admin or a site admin', { unit: 'CODE' });
  }
}

/** The statistics of the commit, from the cache or computed and stored. Largest first. */
async function statsOf(cx: ServiceContext, repo: Models.Repository): Promise<LanguageSize[]> {
  if (repo.isEmpty) return [];
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const commit = await readRef(gitDir, `refs/heads/${repo.defaultBranch}`).catch(() => null);
  if (!commit) return [];
  const cached = await cx.db.languageStat.findMany({ where: { repoId: repo.id }, orderBy: [{ size: 'desc' }, { language: 'asc' }] });
  if (cached.length && cached.every((row) => row.commitId === commit)) {
    return cached.map((row) => ({ language: row.language, size: Number(row.size) }));
  }
  const sizes = [...languageSizes(await treeFileSizes(gitDir, commit))]
    .map(([language, size]) => ({ language, size }))
    .sort((a, b) => b.size - a.size || a.language.localeCompare(b.language));
  try {
    await cx.db.$transaction([
      cx.db.languageStat.deleteMany({ where: { repoId: repo.id } }),
      cx.db.languageStat.createMany({
        data: sizes.map((s, i) => ({ repoId: repo.id, commitId: commit, language: s.language, size: BigInt(s.size), isPrimary: i === 0 })),
      }),
    ]);
  } catch (err) {
    // Another request stored the same statistics meanwhile.
    if (!isUniqueViolation(err)) throw err;
  }
  return sizes;
}

/**
 * Bytes per language of the repository's default branch (Gitea GetLanguages), largest first.
 * @throws NotFoundError (invisible repository), PermissionDeniedError (code unit not readable)
 */
export async function getLanguages(cx: ServiceContext, ref: RepoRef): Promise<LanguageSize[]> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireCodeRead(access);
  return statsOf(cx, access.repo);
}

/** The same for a repository row already in hand (GraphQL Repository.languages); null when the code is not readable. */
export async function languagesOfRepo(cx: ServiceContext, repo: Models.Repository): Promise<LanguageSize[] | null> {
  const access = await requireRepoAccess(cx, repo);
  if (!canRead(access.perm, 'CODE') && !isRepoAdmin(access.perm)) return null;
  return statsOf(cx, repo);
}

/**
 * The languages among `names` that some repository whose code the viewer can read is known to use (its stored
 * language stats), for node(id:) of a Language: one query; null for the others.
 */
export async function readableLanguages(cx: ServiceContext, names: readonly string[]): Promise<({ name: string } | null)[]> {
  const rows = names.length
    ? await cx.db.languageStat.findMany({
        where: { language: { in: [...new Set(names)] }, repo: repoReadWhere(cx, ['CODE']) },
        select: { language: true },
        distinct: ['language'],
      })
    : [];
  const known = new Set(rows.map((r) => r.language));
  return names.map((name) => (known.has(name) ? { name } : null));
}
