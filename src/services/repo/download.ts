// File and archive downloads (Gitea routers/api/v1/repo/file.go GetRawFile, GetArchive; routers/web/repo/download.go).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError } from '../../errors.ts';
import { ensureArchive, type ArchiveFormat } from '../../git/archive.ts';
import { readTreePath, type TreeEntry } from '../../git/readTreePath.ts';
import { readRef } from '../../git/readRefs.ts';
import { resolveRef, type ResolvedRef } from '../../git/resolveRef.ts';
import { streamGit } from '../../git/streamGit.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireCodeRead, type CodeAccess } from './gitRead.ts';

/** A file to send: its tree entry and its bytes, streamed from git. */
export interface RawFile {
  repo: Models.Repository;
  entry: TreeEntry;
  ref: ResolvedRef;
  open(): Readable;
}

/** How a download names its revision: a ref to resolve (API `?ref=`), or a kind and the rest of the path (web routes). */
export type RawTarget = { ref: string; path: string } | { kind: 'branch' | 'tag' | 'commit' | 'legacy'; rest: string };

/** Splits `rest` into a ref of `kind` and a path: the shortest leading segments that name one (branch names may hold `/`). */
async function splitRefPath(
  access: CodeAccess,
  kind: 'branch' | 'tag' | 'commit' | 'legacy',
  rest: string,
): Promise<{ ref: ResolvedRef; path: string } | null> {
  const parts = rest.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const name = parts.slice(0, i).join('/');
    const filePath = parts.slice(i).join('/');
    if (kind === 'commit') {
      const r = await resolveRef(access.gitDir, name);
      return r && r.kind === 'commit' ? { ref: r, path: filePath } : null;
    }
    const prefixes = kind === 'branch' ? ['refs/heads/'] : kind === 'tag' ? ['refs/tags/'] : ['refs/heads/', 'refs/tags/'];
    for (const prefix of prefixes) {
      if (await readRef(access.gitDir, prefix + name)) {
        const r = await resolveRef(access.gitDir, name);
        if (r) return { ref: r, path: filePath };
      }
    }
  }
  if (kind !== 'legacy') return null;
  // Gitea getRefNameLegacy: a leading commit id, else the whole path on the default branch.
  const first = parts[0] ?? '';
  if (/^[0-9a-f]{7,64}$/i.test(first)) {
    const r = await resolveRef(access.gitDir, first);
    if (r?.kind === 'commit') return { ref: r, path: parts.slice(1).join('/') };
  }
  const d = await resolveRef(access.gitDir, access.repo.defaultBranch);
  return d ? { ref: d, path: rest } : null;
}

/**
 * A file's bytes at a revision (Gitea GetRawFile / ServeBlob; `media` serves the blob itself, LFS being
 * absent). Directories and missing paths are 404.
 * @throws NotFoundError
 */
export async function getRawFile(cx: ServiceContext, ref: RepoRef, target: RawTarget): Promise<RawFile> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  if (access.repo.isEmpty) throw new NotFoundError('Git Repository is empty.');
  const found =
    'ref' in target
      ? await (async () => {
          if (!target.ref) return splitRefPath(access, 'legacy', target.path);
          const r = await resolveRef(access.gitDir, target.ref);
          return r ? { ref: r, path: target.path } : null;
        })()
      : await splitRefPath(access, target.kind, target.rest);
  if (!found) throw new NotFoundError('object does not exist', { target });
  const at = await readTreePath(access.gitDir, found.ref.commit, found.path);
  const entry = at?.entry;
  if (!entry || entry.type !== 'blob')
    throw new NotFoundError(`object does not exist [id: , rel_path: ${found.path}]`, { path: found.path });
  const gitDir = access.gitDir;
  return { repo: access.repo, entry, ref: found.ref, open: () => streamGit(gitDir, ['cat-file', 'blob', entry.sha]) };
}

/** A directory's or a file's revision, for the web `src` route: whether it is a tree. @throws NotFoundError */
export async function findSource(
  cx: ServiceContext,
  ref: RepoRef,
  kind: 'branch' | 'tag' | 'commit',
  rest: string,
): Promise<{ ref: ResolvedRef; path: string; isTree: boolean }> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const found = access.repo.isEmpty ? null : await splitRefPath(access, kind, rest);
  if (!found) throw new NotFoundError('object does not exist', { rest });
  const at = await readTreePath(access.gitDir, found.ref.commit, found.path);
  if (!at) throw new NotFoundError(`object does not exist [id: , rel_path: ${found.path}]`, { path: found.path });
  return { ...found, isTree: !!at.children };
}

/** An archive to send: its cached file, its size and the name it is downloaded as. */
export interface Archive {
  file: string;
  size: number;
  fileName: string;
  format: ArchiveFormat;
}

/** The directory of the archive cache (cleaned by the archive_cleanup and delete_repo_archives cron tasks). */
export function archiveCacheDir(cx: ServiceContext): string {
  return path.join(cx.config.dataDir, 'repo-archive');
}

/** Removes the cached archives of a deleted repository. */
export async function removeRepoArchives(cx: ServiceContext, repoId: number): Promise<void> {
  await rm(path.join(archiveCacheDir(cx), String(repoId)), { recursive: true, force: true });
}

/**
 * `{ref}.zip` or `{ref}.tar.gz` of a branch, tag or commit (Gitea archiver_service): `git archive` output with
 * the repository name as prefix, made once per commit and format under `<DATA_DIR>/repo-archive`.
 * @throws NotFoundError, InvalidArgumentError (unknown format)
 */
export async function getArchive(cx: ServiceContext, ref: RepoRef, archive: string): Promise<Archive> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const m = /^(.+)\.(zip|tar\.gz)$/.exec(archive);
  if (!m?.[1] || !m[2]) throw new InvalidArgumentError(`unknown format: ${archive}`, { archive });
  const format = m[2] as ArchiveFormat;
  const resolved = access.repo.isEmpty ? null : await resolveRef(access.gitDir, m[1]);
  if (!resolved) throw new NotFoundError(`ref not found: ${m[1]}`, { ref: m[1] });
  const file = path.join(archiveCacheDir(cx), String(access.repo.id), `${resolved.commit}.${format}`);
  const size = await ensureArchive(access.gitDir, resolved.commit, format, access.repo.name, file);
  const shortRef = resolved.kind === 'commit' ? resolved.commit.slice(0, 10) : m[1].replace(/\//g, '-');
  return { file, size, fileName: `${access.repo.name}-${shortRef}.${format}`, format };
}
