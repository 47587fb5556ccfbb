// Unadopted repositories (Gitea services/repository/adopt.go; /admin/unadopted): bare repositories under the
// repositories root, in the directory of an existing account, that no repository row names. Site admins list them
// ("owner/name"), adopt one (the row is created for the directory) or delete its files.
import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError, NotFoundError, ValidationError } from '../../errors.ts';
import { deleteRepository } from '../../git/deleteRepository.ts';
import { repoPath } from '../../git/repoPath.ts';
import { requireSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { compileGlob } from '../glob.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { createRepo } from './create.ts';
import { validateRepoNameSyntax, validateRepoNameUsable } from './validate.ts';

const subdirs = async (dir: string) =>
  (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory()).map((e) => e.name);

/** Gitea's query: `owner-glob/repo-glob`, or one glob for the owner; case-insensitive. @throws InvalidArgumentError */
function queryMatchers(query: string): { owner: (s: string) => boolean; repo: (s: string) => boolean } {
  const any = () => true;
  if (!query) return { owner: any, repo: any };
  try {
    const [owner = '', repo] = query.split(/\/(.*)/s);
    return { owner: compileGlob(owner, { nocase: true }), repo: repo === undefined ? any : compileGlob(repo, { nocase: true }) };
  } catch {
    throw new InvalidArgumentError(`invalid query: ${query}`);
  }
}

/** GET /admin/unadopted: "owner/name" of each unadopted repository, sorted. @throws PermissionDeniedError, InvalidArgumentError */
export async function listUnadopted(cx: ServiceContext, query: string, page: ListOptions): Promise<Page<string>> {
  requireSiteAdmin(cx, 'read');
  const match = queryMatchers(query);
  const root = cx.config.repositoriesDir;
  const found: string[] = [];
  for (const ownerDir of (await subdirs(root)).filter(match.owner).sort()) {
    const owner = await findUserByName(cx.db, ownerDir);
    if (!owner || owner.lowerName !== ownerDir) continue;
    const rows = await cx.db.repository.findMany({ where: { ownerId: owner.id }, select: { lowerName: true } });
    const known = new Set(rows.map((r) => r.lowerName));
    for (const dir of (await subdirs(path.join(root, ownerDir))).sort()) {
      if (!dir.endsWith('.git') || dir.endsWith('.wiki.git')) continue;
      const name = dir.slice(0, -'.git'.length);
      if (!known.has(name) && match.repo(name)) found.push(`${owner.name}/${name}`);
    }
  }
  const { skip, take } = skipTake(page);
  return { items: found.slice(skip, skip + take), total: found.length };
}

/** The owner and the directory of an unadopted repository; null when there is no such directory. */
async function unadoptedDir(cx: ServiceContext, ownerName: string, name: string) {
  validateRepoNameSyntax(name);
  validateRepoNameUsable(name);
  const owner = await findUserByName(cx.db, ownerName);
  if (!owner) throw new NotFoundError(`user does not exist [name: ${ownerName}]`, { name: ownerName });
  const dir = repoPath(cx.config.repositoriesDir, owner.name, name);
  const exists = existsSync(dir) && statSync(dir).isDirectory();
  const row = await cx.db.repository.findUnique({
    where: { ownerId_lowerName: { ownerId: owner.id, lowerName: name.toLowerCase() } },
    select: { id: true },
  });
  return { owner, dir, exists, adopted: row !== null };
}

/** POST /admin/unadopted/{owner}/{repo}: a private repository is created for the directory. @throws PermissionDeniedError, NotFoundError, ValidationError */
export async function adoptRepository(cx: ServiceContext, ownerName: string, name: string): Promise<void> {
  requireSiteAdmin(cx, 'write');
  const { owner, exists, adopted } = await unadoptedDir(cx, ownerName, name);
  if (adopted || !exists) throw new NotFoundError(`unadopted repository does not exist [${ownerName}/${name}]`);
  await createRepo(cx, { kind: 'user', username: owner.name }, { name: name.toLowerCase(), private: true }, { adopt: true });
}

/** DELETE /admin/unadopted/{owner}/{repo}: removes the files. @throws PermissionDeniedError, NotFoundError, ValidationError */
export async function deleteUnadopted(cx: ServiceContext, ownerName: string, name: string): Promise<void> {
  requireSiteAdmin(cx, 'write');
  const { dir, exists, adopted } = await unadoptedDir(cx, ownerName, name);
  if (!exists) throw new NotFoundError(`repository does not exist [${ownerName}/${name}]`);
  if (adopted) throw new ValidationError(`repository already exists [uname: ${ownerName}, name: ${name}]`);
  await deleteRepository(dir);
}
