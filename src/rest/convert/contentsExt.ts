// Batch and extended contents → Gitea ContentsResponse lists and ContentsExtResponse (routers/api/v1/repo/file.go).
import type { z } from 'zod';
import type { ContentsIncludes, FilesContents } from '../../services/repo/fileContents.ts';
import type { ContentEntry, Contents } from '../../services/repo/gitRead.ts';
import type { ContentsExtResponse, ContentsResponse } from '../structs/git.ts';
import { toApiContentsEntry } from './git.ts';

/** file-contents: every file with its content; null where a path could not be read. */
export function toApiFilesContents(c: FilesContents, rootUrl: string): Array<ContentsResponse | null> {
  return c.files.map((e) => (e ? toApiContentsEntry(c, e, true, rootUrl) : null));
}

/** contents-ext: the last-commit fields only when asked for (Gitea's pointers, omitted when unset). */
export function toApiContentsExt(c: Contents, inc: ContentsIncludes, rootUrl: string): z.infer<typeof ContentsExtResponse> {
  const one = (e: ContentEntry, single: boolean): ContentsResponse => {
    const out: Partial<ContentsResponse> = toApiContentsEntry(c, e, single && inc.fileContent, rootUrl);
    if (!inc.commitMetadata) {
      delete out.last_commit_sha;
      delete out.last_committer_date;
      delete out.last_author_date;
    }
    if (!inc.commitMessage) delete out.last_commit_message;
    return out as ContentsResponse;
  };
  return Array.isArray(c.result) ? { dir_contents: c.result.map((e) => one(e, false)) } : { file_contents: one(c.result, true) };
}
