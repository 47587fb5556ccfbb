// Repository archives (`git archive`), written to a cache file once per commit and format.
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SHA } from './revision.ts';
import { streamGit } from './streamGit.ts';

/** The archive formats Gitea serves. */
export type ArchiveFormat = 'zip' | 'tar.gz';

/**
 * The archive of `commit` with every path under `prefix/` (Gitea: the repository name), at `file`: made by
 * `git archive` into a temporary file then renamed, so readers never see a partial archive; kept when present.
 * Returns the file's size.
 */
export async function ensureArchive(gitDir: string, commit: string, format: ArchiveFormat, prefix: string, file: string): Promise<number> {
  if (!SHA.test(commit)) throw new Error(`archive of a non-commit id ${commit}`);
  const existing = await stat(file).catch(() => null);
  if (existing) return existing.size;
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await pipeline(streamGit(gitDir, ['archive', `--format=${format}`, `--prefix=${prefix}/`, commit]), createWriteStream(tmp));
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
  return (await stat(file)).size;
}
