/**
 * Whether isomorphic-git can read the object `sha` names in process: it reads SHA-1 repositories only, so a
 * SHA-256 repository's objects (64-digit ids) are read with the git CLI.
 */
export const readableInProcess = (sha: string): boolean => /^[0-9a-f]{40}$/.test(sha);
