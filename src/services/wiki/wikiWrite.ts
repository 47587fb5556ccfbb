// Writing a wiki (Gitea services/wiki/wiki.go updateWikiPage, DeleteWikiPage): each write is one commit by the
// viewer on the wiki's branch, made without a work tree (git/commitFiles) and moved by compare-and-swap under
// the repository's write lock. Its `wiki` webhook is a job held before the branch moves (wikiEvent.ts).
import type { Models } from '../../db/client.ts';
import { ConflictError, InvalidArgumentError, NotFoundError } from '../../errors.ts';
import { commitFiles, type FileChange } from '../../git/commitFiles.ts';
import { readRef } from '../../git/readRefs.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { withRepoHeld } from '../repo/heldRepo.ts';
import { moveWikiBranch } from '../repo/moveRefs.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import { WIKI_CHANGED, type WikiAction, type WikiChangedPayload } from './wikiEvent.ts';
import { readPage, type WikiPageView } from './wikiRead.ts';
import { requireUsableWebPath, userTitleToWebPath, webPathFromRequest, webPathToGitPath } from './wikiPath.ts';
import { initWiki, pageFile, requireWikiHead, requireWikiWrite, type WikiAccess } from './wikiRepo.ts';

/** Gitea CreateWikiPageOptions: `title` (empty on an edit keeps the name), `content_base64`, `message`. */
export interface WikiPageInput {
  title?: string | undefined;
  contentBase64?: string | undefined;
  message?: string | undefined;
}

/** Go's `%q` of a string (a double-quoted, escaped literal): Gitea's default messages quote names so. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go base64.StdEncoding.DecodeString, with its error text. @throws InvalidArgumentError */
function decodeBase64(text: string): Buffer {
  const bad = text.search(/[^A-Za-z0-9+/=\r\n]/);
  const clean = text.replace(/[\r\n]/g, '');
  const padding = /^[A-Za-z0-9+/]*={0,2}$/.test(clean);
  if (bad >= 0 || clean.length % 4 !== 0 || !padding) {
    const at = bad >= 0 ? bad : padding ? clean.length - (clean.length % 4) : clean.indexOf('=');
    throw new InvalidArgumentError(`illegal base64 data at input byte ${at}`, { field: 'content_base64' });
  }
  return Buffer.from(clean, 'base64');
}

/** One commit on the wiki: what changes, under which message, and which webhook it makes. */
interface WikiCommit {
  /** The page being created, edited or deleted (web paths). */
  page: string;
  /** The changes, given where each page is at the parent commit (null: the wiki has no commit yet). */
  changes: (parent: string | null) => Promise<FileChange[]>;
  message: string;
  action: WikiAction;
  /** The webhook's `comment`: Gitea sends the message of a creation or edit, nothing for a deletion. */
  comment?: string;
}

/**
 * Writes one commit on the wiki's branch as the viewer: under the repository's write lock (re-entrant), the
 * wiki made on its first write, the commit written, the webhook's job held, the branch moved by compare-and-swap.
 * @throws InvalidArgumentError, NotFoundError from `changes`; ConflictError when a push moved the branch meanwhile
 */
async function commitToWiki(cx: ServiceContext, access: WikiAccess & { doer: Models.User }, c: WikiCommit): Promise<void> {
  const repo = access.repo;
  // Holding the repository with its row read again (withRepoHeld): a write that waited behind a rename or transfer
  // is refused, not made into a new wiki at the old path.
  await withRepoHeld(cx, repo, async () => {
    const branch = await initWiki(cx, access.gitDir);
    const parent = await readRef(access.gitDir, `refs/heads/${branch}`);
    const changes = await c.changes(parent);
    const who = gitSignature(cx, access.doer, new Date());
    const { commit } = await commitFiles(access.gitDir, { parent, changes, message: c.message, author: who, committer: who });
    const payload: WikiChangedPayload = {
      repoId: repo.id,
      actorId: access.doer.id,
      action: c.action,
      page: c.page,
      comment: c.comment ?? c.message,
      branch,
      newSha: commit,
    };
    const held = await cx.jobs.hold(WIKI_CHANGED, payload);
    let moved = false;
    try {
      moved = await moveWikiBranch(cx, repo, branch, parent, commit);
    } finally {
      await held.run({ ...payload, applied: moved });
    }
    if (!moved) throw new ConflictError('the wiki was changed by someone else meanwhile; retry', { branch });
  });
}

/**
 * A page written (created, edited or moved): its content decoded, its name checked (Gitea validateWebPath), the
 * commit of `changes` made, and the page answered as it now is.
 * @throws InvalidArgumentError, NotFoundError, ConflictError
 */
async function savePage(
  cx: ServiceContext,
  access: WikiAccess & { doer: Models.User },
  page: { webPath: string; message: string; action: WikiAction; contentBase64: string | undefined },
  changes: (parent: string | null, content: Buffer) => Promise<FileChange[]>,
): Promise<WikiPageView> {
  const content = decodeBase64(page.contentBase64 ?? '');
  requireUsableWebPath(page.webPath);
  await commitToWiki(cx, access, {
    page: page.webPath,
    message: page.message,
    action: page.action,
    changes: (parent) => changes(parent, content),
  });
  return readPage(access, await requireWikiHead(access), page.webPath);
}

/**
 * POST …/wiki/new (Gitea NewWikiPage): a page from its title, with Gitea's default message `Add "<title>"`.
 * @throws InvalidArgumentError (empty title, bad base64, a reserved name, a page of that name exists), NotFoundError,
 * PermissionDeniedError, RepoArchivedError, ConflictError
 */
export async function createWikiPage(cx: ServiceContext, ref: RepoRef, input: WikiPageInput): Promise<WikiPageView> {
  const access = await requireWikiWrite(cx, ref);
  const title = input.title ?? '';
  if (!title.trim()) throw new InvalidArgumentError('emptyTitle', { field: 'title' });
  const webPath = userTitleToWebPath(title);
  const message = input.message || `Add ${goQuote(title)}`;
  return savePage(cx, access, { webPath, message, action: 'created', contentBase64: input.contentBase64 }, async (parent, content) => {
    const file = await pageFile(access.gitDir, parent, webPath, webPathToGitPath(webPath));
    if (file.exists) throw new InvalidArgumentError(`wiki page with same name already exists: ${file.path}`, { page: webPath });
    return [{ path: file.path, content, mode: '100644' }];
  });
}

/**
 * PATCH …/wiki/page/{pageName} (Gitea EditWikiPage): new content, and a new name when `title` is given (the page
 * moves; a page already at the new name is replaced, as in Gitea), with the default message `Update "<web path>"`.
 * @throws InvalidArgumentError, NotFoundError (no such page), PermissionDeniedError, RepoArchivedError, ConflictError
 */
export async function editWikiPage(cx: ServiceContext, ref: RepoRef, rawName: string, input: WikiPageInput): Promise<WikiPageView> {
  const access = await requireWikiWrite(cx, ref);
  await requireWikiHead(access);
  const oldPath = webPathFromRequest(rawName);
  const newPath = input.title?.trim() ? userTitleToWebPath(input.title) : oldPath;
  const message = input.message || `Update ${goQuote(newPath)}`;
  const page = { webPath: newPath, message, action: 'edited' as const, contentBase64: input.contentBase64 };
  return savePage(cx, access, page, async (parent, content) => {
    const old = await pageFile(access.gitDir, parent, oldPath, webPathToGitPath(oldPath));
    if (!old.exists) throw new NotFoundError('not found', { page: oldPath });
    const target = newPath === oldPath ? old : await pageFile(access.gitDir, parent, newPath, webPathToGitPath(newPath));
    const moved = target.path !== old.path;
    return [...(moved ? [{ path: old.path, remove: true as const }] : []), { path: target.path, content, mode: '100644' }];
  });
}

/**
 * DELETE …/wiki/page/{pageName} (Gitea DeleteWikiPage), with Gitea's message `Delete page "<web path>"`.
 * @throws NotFoundError (no such page), PermissionDeniedError, RepoArchivedError, ConflictError
 */
export async function deleteWikiPage(cx: ServiceContext, ref: RepoRef, rawName: string): Promise<void> {
  const access = await requireWikiWrite(cx, ref);
  await requireWikiHead(access);
  const webPath = webPathFromRequest(rawName);
  await commitToWiki(cx, access, {
    page: webPath,
    message: `Delete page ${goQuote(webPath)}`,
    action: 'deleted',
    comment: '',
    changes: async (parent) => {
      const file = await pageFile(access.gitDir, parent, webPath, webPathToGitPath(webPath));
      if (!file.exists) throw new NotFoundError('not found', { page: webPath });
      return [{ path: file.path, remove: true }];
    },
  });
}
