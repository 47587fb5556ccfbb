import path from 'node:path';

/** The bare repository directory of `owner/name`: `<repositoriesDir>/<owner lower>/<name lower>.git`. */
export function repoPath(repositoriesDir: string, ownerName: string, repoName: string): string {
  return path.join(repositoriesDir, ownerName.toLowerCase(), `${repoName.toLowerCase()}.git`);
}

/** The wiki's bare repository beside it: `<repositoriesDir>/<owner lower>/<name lower>.wiki.git`. */
export function wikiPath(repositoriesDir: string, ownerName: string, repoName: string): string {
  return repoPath(repositoriesDir, ownerName, `${repoName}.wiki`);
}
