// Batch and extended contents reads (Gitea 1.24 file-contents and contents-ext APIs), on top of the contents
// reader in gitRead.ts.
import { InvalidArgumentError } from '../../errors.ts';
import { lastCommitFor } from '../../git/commitInfo.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath } from '../../git/readTreePath.ts';
import type { ServiceContext } from '../context.ts';
import { DEFAULT_PAGE_SIZE } from '../paging.ts';
import { getContents, MAX_BLOB_SIZE, requireCodeRead, resolveCodeRef, type ContentEntry, type Contents } from './gitRead.ts';

/** Gitea `[api] DEFAULT_MAX_RESPONSE_SIZE`: the file-contents API stops before its contents pass this many bytes. */
export const MAX_RESPONSE_SIZE = 104_857_600;

/** What a batch read answers: each asked path's entry (a file with its content), or null when it cannot be read. */
export interface FilesContents extends Pick<Contents, 'repo' | 'ref'> {
  files: Array<ContentEntry | null>;
}

/**
 * Gitea GetContentsListFromTreePaths: `paths` at `ref` (the default branch when empty), each a file with its
 * content (none above MAX_BLOB_SIZE), a directory or symlink entry, or null when missing. Like Gitea, the answer
 * stops after DEFAULT_PAGE_SIZE (30) paths or before its contents pass MAX_RESPONSE_SIZE; clients ask again for the rest.
 * @throws NotFoundError (repository, code unit, ref)
 */
export async function getFilesContents(
  cx: ServiceContext,
  owner: string,
  name: string,
  paths: readonly string[],
  ref?: string,
): Promise<FilesContents> {
  const access = await requireCodeRead(cx, owner, name);
  const resolved = await resolveCodeRef(access, ref);
  const files: Array<ContentEntry | null> = [];
  let size = 0;
  for (const path of paths) {
    const found = await readTreePath(access.gitDir, resolved.commit, path.replace(/^\/+|\/+$/g, ''));
    const entry = found?.entry ?? null;
    let item: ContentEntry | null = null;
    if (entry) {
      const content = entry.type === 'blob' && entry.size <= MAX_BLOB_SIZE ? (await readObject(access.gitDir, entry.sha)).content : null;
      item = { entry, lastCommit: await lastCommitFor(access.gitDir, resolved.commit, entry.path), content };
      if (entry.mode !== '120000') size += Math.ceil((content?.length ?? 0) / 3) * 4;
    }
    if (size > MAX_RESPONSE_SIZE) break;
    files.push(item);
    if (files.length === DEFAULT_PAGE_SIZE) break;
  }
  return { repo: access.repo, ref: resolved, files };
}

/** What contents-ext adds to an entry (Gitea's `includes` options). */
export interface ContentsIncludes {
  fileContent: boolean;
  lfsMetadata: boolean;
  commitMetadata: boolean;
  commitMessage: boolean;
}

const INCLUDES: Record<string, keyof ContentsIncludes> = {
  file_content: 'fileContent',
  lfs_metadata: 'lfsMetadata',
  commit_metadata: 'commitMetadata',
  commit_message: 'commitMessage',
};

/** The comma-separated `includes` query. @throws InvalidArgumentError for an unknown option (Gitea's 400) */
function parseIncludes(text: string | undefined): ContentsIncludes {
  const out: ContentsIncludes = { fileContent: false, lfsMetadata: false, commitMetadata: false, commitMessage: false };
  for (const opt of (text ?? '').split(',')) {
    if (!opt) continue;
    const key = Object.hasOwn(INCLUDES, opt) ? INCLUDES[opt] : undefined;
    if (!key) throw new InvalidArgumentError(`unknown include option "${opt}"`, { includes: opt });
    out[key] = true;
  }
  return out;
}

/**
 * Gitea GetContentsExt: a directory's entries or one file's metadata at `ref`, with what `includes` asks for
 * (the content only for a single file; `.` or '' is the root).
 * @throws NotFoundError, InvalidArgumentError
 */
export async function getContentsExt(
  cx: ServiceContext,
  owner: string,
  name: string,
  path: string,
  ref: string | undefined,
  includesText: string | undefined,
): Promise<{ contents: Contents; includes: ContentsIncludes }> {
  await requireCodeRead(cx, owner, name);
  const includes = parseIncludes(includesText);
  const clean = path === '.' ? '' : path;
  const contents = await getContents(cx, owner, name, clean, ref, { commitMetadata: includes.commitMetadata || includes.commitMessage });
  return { contents, includes };
}
