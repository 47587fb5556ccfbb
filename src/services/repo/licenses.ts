// Repository licenses (Gitea repo_license): the SPDX ids detected in the license files at the root of the default
// branch, stored with the commit they were detected at. Detection runs in a job after a push to the default branch
// (licenseJob.ts) and in the sync_repo_licenses cron task; reads serve the stored rows, as Gitea's do.
import type { Models } from '../../db/client.ts';
import { readRef } from '../../git/readRefs.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath } from '../../git/readTreePath.ts';
import { repoPath } from '../../git/repoPath.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { requireCodeRead } from './gitRead.ts';
import { detectLicense, isLicenseFileName, MAX_LICENSE_FILE_SIZE } from './licenseDetect.ts';

/** The SPDX ids of the license files at the root of `commit`, sorted. */
async function licensesAt(gitDir: string, commit: string): Promise<string[]> {
  const root = await readTreePath(gitDir, commit, '');
  const files = (root?.children ?? []).filter((e) => e.type === 'blob' && isLicenseFileName(e.name) && e.size <= MAX_LICENSE_FILE_SIZE);
  const found = new Set<string>();
  for (const file of files) {
    const id = detectLicense((await readObject(gitDir, file.sha)).content.toString('utf8'));
    if (id) found.add(id);
  }
  return [...found].sort();
}

/**
 * Detects the licenses of the repository's default branch and stores them (Gitea UpdateRepoLicenses). Nothing
 * is read again when the stored rows are of the branch's current commit. Returns the ids.
 */
export async function syncRepoLicenses(cx: ServiceContext, repo: Models.Repository): Promise<string[]> {
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const commit = repo.isEmpty ? null : await readRef(gitDir, `refs/heads/${repo.defaultBranch}`).catch(() => null);
  const stored = await cx.db.repoLicense.findMany({ where: { repoId: repo.id }, orderBy: { license: 'asc' } });
  if (commit && stored.length && stored.every((row) => row.commitId === commit)) return stored.map((row) => row.license);
  const ids = commit ? await licensesAt(gitDir, commit) : [];
  await withTx(cx, async (tx) => {
    await tx.repoLicense.deleteMany({ where: { repoId: repo.id } });
    if (commit && ids.length)
      await tx.repoLicense.createMany({ data: ids.map((license) => ({ repoId: repo.id, commitId: commit, license })) });
  });
  return ids;
}

/** The repository's stored licenses (Gitea GetLicenses): SPDX ids, [] when none. @throws NotFoundError */
export async function getRepoLicenses(cx: ServiceContext, ref: RepoRef): Promise<string[]> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const rows = await cx.db.repoLicense.findMany({
    where: { repoId: access.repo.id },
    orderBy: { license: 'asc' },
    select: { license: true },
  });
  return rows.map((row) => row.license);
}
