// Reading a wiki (Gitea routers/api/v1/repo/wiki.go): its pages, one page with the sidebar and footer, and the
// revisions of a page. Every read goes through requireWikiRead.
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { CommitInfo } from '../../git/commitInfo.ts';
import { lastCommitsFor } from '../../git/lastCommits.ts';
import { logCommits } from '../../git/logCommits.ts';
import { lookupPaths } from '../../git/lookupPaths.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath } from '../../git/readTreePath.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { MAX_BLOB_SIZE } from '../repo/gitRead.ts';
import { gitPathToWebPath, webPathFromRequest, webPathToGitPath, webPathToUserTitle } from './wikiPath.ts';
import { requireWikiHead, requireWikiRead, type WikiAccess, type WikiHead } from './wikiRepo.ts';

/** What the API shows of a page in lists (Gitea WikiPageMetaData). */
export interface WikiPageMeta {
  repo: Models.Repository;
  /** The page's web path (its URL segment, `sub_url`). */
  webPath: string;
  title: string;
  lastCommit: CommitInfo;
}

/** A page (Gitea WikiPage): its content and the wiki's sidebar and footer (null: absent, or too large to send). */
export interface WikiPageView extends WikiPageMeta {
  content: Buffer | null;
  commitCount: number;
  sidebar: Buffer | null;
  footer: Buffer | null;
}

/** Commits of a page per revisions page (Gitea's `[git] COMMITS_RANGE_SIZE`). */
export const REVISIONS_PAGE_SIZE = 50;

/**
 * A file of the wiki by its git path, or by that path unescaped (Gitea findEntryForFile: older wikis stored some
 * names unescaped, and `a%2Fb` may name `a/b`); null when neither is a file.
 */
async function findFile(gitDir: string, commit: string, gitPath: string): Promise<{ path: string; sha: string } | null> {
  let unescaped: string | null;
  try {
    unescaped = decodeURIComponent(gitPath.replace(/\+/g, ' '));
  } catch {
    unescaped = null;
  }
  const found = await lookupPaths(gitDir, commit, unescaped && unescaped !== gitPath ? [gitPath, unescaped] : [gitPath]);
  for (const p of [gitPath, unescaped]) {
    const e = p ? found.get(p) : undefined;
    if (p && e?.type === 'blob') return { path: p, sha: e.sha };
  }
  return null;
}

/** A file's content, or null when it is larger than the API sends (Gitea DefaultMaxBlobSize). */
async function contentOf(gitDir: string, sha: string): Promise<Buffer | null> {
  const { content } = await readObject(gitDir, sha);
  return content.length > MAX_BLOB_SIZE ? null : content;
}

/** The page `webPath` at the wiki's head (also the answer of a write). @throws NotFoundError */
export async function readPage(access: WikiAccess, head: WikiHead, webPath: string): Promise<WikiPageView> {
  const file = await findFile(access.gitDir, head.commit, webPathToGitPath(webPath));
  if (!file) throw new NotFoundError('not found', { page: webPath });
  const [content, sidebar, footer, log] = await Promise.all([
    contentOf(access.gitDir, file.sha),
    findFile(access.gitDir, head.commit, webPathToGitPath('_Sidebar')).then((f) => (f ? contentOf(access.gitDir, f.sha) : null)),
    findFile(access.gitDir, head.commit, webPathToGitPath('_Footer')).then((f) => (f ? contentOf(access.gitDir, f.sha) : null)),
    logCommits(access.gitDir, { head: head.commit, path: file.path, skip: 0, limit: 1 }),
  ]);
  const [last] = log.commits;
  if (!last) throw new NotFoundError('not found', { page: webPath });
  return {
    repo: access.repo,
    webPath,
    title: webPathToUserTitle(webPath),
    lastCommit: last,
    content,
    commitCount: log.total,
    sidebar,
    footer,
  };
}

/**
 * GET …/wiki/page/{pageName} (Gitea GetWikiPage): `rawName` is the URL segment as sent (still escaped).
 * @throws NotFoundError (no wiki, no such page, or the wiki unit not readable)
 */
export async function getWikiPage(cx: ServiceContext, ref: RepoRef, rawName: string): Promise<WikiPageView> {
  const access = await requireWikiRead(cx, ref);
  return readPage(access, await requireWikiHead(access), webPathFromRequest(rawName));
}

/**
 * GET …/wiki/pages (Gitea ListWikiPages): the page files at the top of the wiki, each with its last commit. As in
 * Gitea, the window is taken over all top-level entries (other files and directories count, and are left out of
 * the page), and the total counts them all.
 * @throws NotFoundError
 */
export async function listWikiPages(cx: ServiceContext, ref: RepoRef, page: ListOptions): Promise<Page<WikiPageMeta>> {
  const access = await requireWikiRead(cx, ref);
  const head = await requireWikiHead(access);
  const entries = (await readTreePath(access.gitDir, head.commit, ''))?.children ?? [];
  const { skip, take } = skipTake(page);
  const pages = entries
    .slice(skip, skip + take)
    .filter((e) => e.type === 'blob' && e.mode === '100644')
    .flatMap((e) => {
      const webPath = gitPathToWebPath(e.name);
      return webPath === null ? [] : [{ name: e.name, webPath }];
    });
  const last = await lastCommitsFor(
    access.gitDir,
    head.commit,
    '',
    pages.map((p) => p.name),
  );
  const items = pages.flatMap((p) => {
    const lastCommit = last.get(p.name);
    return lastCommit ? [{ repo: access.repo, webPath: p.webPath, title: webPathToUserTitle(p.webPath), lastCommit }] : [];
  });
  return { items, total: entries.length };
}

/**
 * GET …/wiki/revisions/{pageName} (Gitea ListPageRevisions): the commits that touched the page, newest first,
 * REVISIONS_PAGE_SIZE a page, and how many there are. An empty name is the `Home` page.
 * @throws NotFoundError
 */
export async function listWikiRevisions(cx: ServiceContext, ref: RepoRef, rawName: string, pageNumber: number): Promise<Page<CommitInfo>> {
  const access = await requireWikiRead(cx, ref);
  const head = await requireWikiHead(access);
  const webPath = webPathFromRequest(rawName) || 'Home';
  const file = await findFile(access.gitDir, head.commit, webPathToGitPath(webPath));
  if (!file) throw new NotFoundError('not found', { page: webPath });
  const { skip, take } = skipTake({ page: Math.max(1, pageNumber), pageSize: REVISIONS_PAGE_SIZE });
  const log = await logCommits(access.gitDir, { head: head.commit, path: file.path, skip, limit: take });
  return { items: log.commits, total: log.total };
}
