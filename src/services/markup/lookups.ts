// What references may link to, asked in bulk for a whole batch of documents: one query for the mentioned users
// the viewer may see, one for the named repositories the viewer may read, one git process per repository for
// its commit ids. A mention of a hidden user, or a reference into a repository the viewer cannot read, stays text.
import { existingCommits } from '../../git/existingCommits.ts';
import { repoPath } from '../../git/repoPath.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { userReadWhere } from '../user/visibility.ts';
import type { Lookups, Needs } from './decorate.ts';

/** Bounds on one batch's lookups (a body full of mentions costs no more than this). */
const MAX_LOGINS = 500;
const MAX_REPOS = 100;
const MAX_COMMITS = 500;

/** Empty needs. */
export function noNeeds(): Needs {
  return { logins: new Set(), repos: new Set(), commits: new Map() };
}

/** The lookups of a batch: `gitDirs` are the repositories whose commit ids were collected (by id). */
export async function resolveLookups(cx: ServiceContext, needs: Needs, gitDirs: ReadonlyMap<number, string>): Promise<Lookups> {
  const logins = [...needs.logins].slice(0, MAX_LOGINS);
  const pairs = [...needs.repos].slice(0, MAX_REPOS).map((p) => p.split('/') as [string, string]);
  const [users, repos, commits] = await Promise.all([
    logins.length
      ? cx.db.user.findMany({ where: { AND: [userReadWhere(cx), { lowerName: { in: logins } }] }, select: { lowerName: true } })
      : [],
    pairs.length
      ? cx.db.repository.findMany({
          where: { AND: [repoReadWhere(cx), { OR: pairs.map(([o, n]) => ({ lowerName: n, owner: { lowerName: o } })) }] },
          select: { name: true, ownerName: true },
        })
      : [],
    Promise.all(
      [...needs.commits].map(async ([repoId, shas]) => {
        const dir = gitDirs.get(repoId);
        return [repoId, dir ? await existingCommits(dir, [...shas].slice(0, MAX_COMMITS)) : new Set<string>()] as const;
      }),
    ),
  ]);
  return {
    mentionable: new Set(users.map((u) => u.lowerName)),
    repos: new Map(repos.map((r) => [`${r.ownerName}/${r.name}`.toLowerCase(), { owner: r.ownerName, name: r.name }])),
    commits: new Map(commits),
  };
}

/** The git directory of a repository row. */
export function gitDirOf(cx: ServiceContext, repo: { ownerName: string; name: string }): string {
  return repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
}
