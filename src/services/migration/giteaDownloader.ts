// service=gitea and gogs (Gitea services/migrations/gitea_downloader.go): the source's /api/v1.
import { mapConcurrent, sourceApi } from './http.ts';
import {
  dateOf,
  milestoneFromApi,
  type Downloader,
  type SourceComment,
  type SourceIssue,
  type SourceReaction,
  type SourceUser,
} from './source.ts';

interface GUser {
  login?: string;
  username?: string;
  id?: number;
}
interface GLabel {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
}
interface GIssue {
  number: number;
  title: string;
  body?: string;
  user?: GUser | null;
  state: string;
  is_locked?: boolean;
  labels?: GLabel[] | null;
  milestone?: { title: string } | null;
  created_at: string;
  updated_at: string;
  closed_at?: string | null;
}
interface GPull extends GIssue {
  base: { ref: string };
  head: { ref: string; sha: string };
  merged?: boolean;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
}
interface GComment {
  id: number;
  user?: GUser | null;
  body?: string;
  created_at: string;
  updated_at: string;
}
interface GReaction {
  user?: GUser | null;
  content: string;
}
interface GReview {
  user?: GUser | null;
  state: string;
  body?: string;
  commit_id?: string;
  submitted_at?: string;
}

const PAGE = 50;

function userOf(u: GUser | null | undefined): SourceUser {
  return { login: u?.login ?? u?.username ?? 'ghost', id: u?.id ?? -1 };
}

function reactionsOf(list: GReaction[]): SourceReaction[] {
  return list.map((r) => ({ user: userOf(r.user), content: r.content }));
}

/** Base URL, owner and name from a clone address: `{base}/{owner}/{repo}[.git]`. */
export function giteaTarget(cloneUrl: string): { root: string; owner: string; repo: string } {
  const url = new URL(cloneUrl);
  const parts = url.pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  const repo = parts.pop() ?? '';
  const owner = parts.pop() ?? '';
  const prefix = parts.length ? `/${parts.join('/')}` : '';
  return { root: `${url.origin}${prefix}/api/v1/`, owner, repo };
}

/** The Gitea/Gogs downloader for the repository at `cloneUrl`. */
export function giteaDownloader(cloneUrl: string, authorization: string | undefined): Downloader {
  const { root, owner, repo } = giteaTarget(cloneUrl);
  const api = sourceApi(root, authorization);
  const base = `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;

  async function comments(n: number): Promise<SourceComment[]> {
    const list = await api.all<GComment>(`${base}/issues/${n}/comments`, PAGE);
    return mapConcurrent(list, async (c) => {
      const reactions = await api.json<GReaction[] | null>(`${base}/issues/comments/${c.id}/reactions`);
      return {
        user: userOf(c.user),
        body: c.body ?? '',
        createdAt: new Date(c.created_at),
        updatedAt: new Date(c.updated_at),
        reactions: reactionsOf(reactions ?? []),
      };
    });
  }

  async function issueOf(i: GIssue): Promise<SourceIssue> {
    const reactions = await api.json<GReaction[] | null>(`${base}/issues/${i.number}/reactions`);
    return {
      number: i.number,
      title: i.title,
      body: i.body ?? '',
      user: userOf(i.user),
      closed: i.state === 'closed',
      locked: i.is_locked ?? false,
      labels: (i.labels ?? []).map((l) => l.name),
      milestone: i.milestone?.title ?? null,
      createdAt: new Date(i.created_at),
      updatedAt: new Date(i.updated_at),
      closedAt: dateOf(i.closed_at),
      reactions: reactionsOf(reactions ?? []),
      comments: await comments(i.number),
      pull: null,
    };
  }

  return {
    async cloneUrl() {
      return (await api.json<{ clone_url: string }>(base)).clone_url;
    },
    async labels() {
      const list = await api.all<GLabel>(`${base}/labels`, PAGE);
      return list.map((l) => ({
        name: l.name,
        color: l.color.replace(/^#/, ''),
        description: l.description ?? '',
        exclusive: l.exclusive ?? false,
      }));
    },
    async milestones() {
      const list = await api.all<{
        title: string;
        description?: string;
        state: string;
        due_on?: string | null;
        created_at?: string;
        closed_at?: string | null;
      }>(`${base}/milestones?state=all`, PAGE);
      return list.map(milestoneFromApi);
    },
    async releases() {
      const list = await api.all<{
        tag_name: string;
        target_commitish?: string;
        name?: string;
        body?: string;
        draft?: boolean;
        prerelease?: boolean;
        author?: GUser | null;
        created_at: string;
        assets?: { name: string; size: number; download_count?: number; created_at: string; browser_download_url: string }[];
      }>(`${base}/releases`, PAGE);
      return list.map((r) => ({
        tagName: r.tag_name,
        target: r.target_commitish ?? '',
        name: r.name ?? '',
        body: r.body ?? '',
        draft: r.draft ?? false,
        prerelease: r.prerelease ?? false,
        author: userOf(r.author),
        createdAt: new Date(r.created_at),
        assets: (r.assets ?? []).map((a) => ({
          name: a.name,
          size: a.size,
          downloadCount: a.download_count ?? 0,
          createdAt: new Date(a.created_at),
          url: a.browser_download_url,
        })),
      }));
    },
    async issues() {
      const list = await api.all<GIssue>(`${base}/issues?state=all&type=issues`, PAGE);
      return mapConcurrent(list, issueOf);
    },
    async pulls() {
      const list = await api.all<GPull>(`${base}/pulls?state=all`, PAGE);
      return mapConcurrent(list, async (p) => {
        const issue = await issueOf(p);
        const reviews = await api.all<GReview>(`${base}/pulls/${p.number}/reviews`, PAGE);
        issue.pull = {
          baseBranch: p.base.ref,
          headBranch: p.head.ref,
          headSha: p.head.sha,
          merged: p.merged ?? false,
          mergedAt: dateOf(p.merged_at),
          mergeCommitSha: p.merge_commit_sha ?? '',
          reviews: reviews.map((r) => ({
            user: userOf(r.user),
            state: (['APPROVED', 'REQUEST_CHANGES', 'COMMENT', 'PENDING'].includes(r.state) ? r.state : 'COMMENT') as 'COMMENT',
            body: r.body ?? '',
            commitId: r.commit_id ?? '',
            submittedAt: dateOf(r.submitted_at) ?? new Date(p.created_at),
          })),
        };
        return issue;
      });
    },
    download: (asset) => api.bytes(asset.url),
  };
}
