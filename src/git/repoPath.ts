import path from 'node:path';

/** The bare repository directory of `owner/name`: `<repositoriesDir>/<owner lower>/<name lower>.git`. */
export function repoPath(repositoriesDir: string, ownerName: string, repoName: string): string {
  return path.join(repositoriesDir, ownerName.toLowerCase(), `${repoName.toLowerCase()}.git`);
}
