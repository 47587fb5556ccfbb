// Gitea wiki converters (services/convert/wiki.go ToWikiCommit, ToWikiCommitList; services/wiki ToWikiPageMetaData).
import type { CommitInfo, GitSignature } from '../../git/commitInfo.ts';
import type { WikiPageMeta, WikiPageView } from '../../services/wiki/wikiRead.ts';
import type { WikiCommit, WikiCommitList, WikiPage, WikiPageMetaData } from '../structs/wiki.ts';
import { goPathEscape } from './git.ts';
import { apiTime } from './time.ts';

const commitUser = (s: GitSignature) => ({ name: s.name, email: s.email, date: apiTime(new Date(s.when)) });

/** Gitea ToWikiCommit (times in UTC). */
export function toApiWikiCommit(c: CommitInfo): WikiCommit {
  return { sha: c.sha, author: commitUser(c.author), commiter: commitUser(c.committer), message: c.message };
}

/** Gitea ToWikiPageMetaData: `html_url` is the page on the repository's wiki. */
export function toApiWikiPageMetaData(p: WikiPageMeta, rootUrl: string): WikiPageMetaData {
  return {
    title: p.title,
    html_url: `${rootUrl}${goPathEscape(p.repo.ownerName)}/${goPathEscape(p.repo.name)}/wiki/${p.webPath}`,
    sub_url: p.webPath,
    last_commit: toApiWikiCommit(p.lastCommit),
  };
}

const base64 = (b: Buffer | null) => (b ? b.toString('base64') : '');

/** Gitea WikiPage: the content, sidebar and footer base64 (empty when absent or too large). */
export function toApiWikiPage(p: WikiPageView, rootUrl: string): WikiPage {
  return {
    ...toApiWikiPageMetaData(p, rootUrl),
    content_base64: base64(p.content),
    commit_count: p.commitCount,
    sidebar: base64(p.sidebar),
    footer: base64(p.footer),
  };
}

/** Gitea ToWikiCommitList. */
export function toApiWikiCommitList(commits: readonly CommitInfo[], count: number): WikiCommitList {
  return { commits: commits.map(toApiWikiCommit), count };
}
