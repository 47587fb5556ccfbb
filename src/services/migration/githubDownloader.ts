// service=github (Gitea services/migrations/github.go): the GitHub REST API (api.github.com, or {host}/api/v3/).
import { sourceApi } from './http.ts';
import {
  dateOf,
  milestoneFromApi,
  type Downloader,
  type SourceComment,
  type SourceIssue,
  type SourceReaction,
  type SourceUser,
} from './source.ts';

interface HUser {
  login: string;
  id: number;
}
interface HReaction {
  user: HUser | null;
  content: string;
}
interface HIssue {
  number: number;
  title: string;
  body?: string | null;
  user: HUser | null;
  state: string;
  locked?: boolean;
  labels: ({ name?: string } | string)[];
  milestone?: { title: string } | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  pull_request?: unknown;
}
interface HPull extends HIssue {
  merged_at: string | null;
  merge_commit_sha: string | null;
  head: { ref: string; sha: string };
  base: { ref: string };
}
interface HComment {
  id: number;
  issue_url: string;
  user: HUser | null;
  body?: string;
  created_at: string;
  updated_at: string;
}

const PAGE = 100;

function userOf(u: HUser | null | undefined): SourceUser {
  return { login: u?.login ?? 'ghost', id: u?.id ?? -1 };
}

function reactionsOf(list: HReaction[]): SourceReaction[] {
  return list.map((r) => ({ user: userOf(r.user), content: r.content }));
}

/** The API root and repository of a GitHub clone address. */
export function githubTarget(cloneUrl: string): { root: string; owner: string; repo: string } {
  const url = new URL(cloneUrl);
  const [owner = '', repo = ''] = url.pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  const root = url.hostname === 'github.com' ? 'https://api.github.com/' : `${url.origin}/api/v3/`;
  return { root, owner, repo };
}

/** The GitHub downloader for the repository at `cloneUrl`. */
export function githubDownloader(cloneUrl: string, authorization: string | undefined): Downloader {
  const { root, owner, repo } = githubTarget(cloneUrl);
  const api = sourceApi(root, authorization);
  const base = `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  let repoComments: Promise<Map<number, SourceComment[]>> | null = null;

  /** GitHub lists comments repository-wide (SupportGetRepoComments); grouped by issue number once. */
  function commentsByIssue(): Promise<Map<number, SourceComment[]>> {
    repoComments ??= (async () => {
      const map = new Map<number, SourceComment[]>();
      for (const c of await api.all<HComment>(`${base}/issues/comments?sort=created&direction=asc`, PAGE, 'per_page')) {
        const n = Number(/\/issues\/(\d+)$/.exec(c.issue_url)?.[1] ?? 0);
        const reactions = await api.all<HReaction>(`${base}/issues/comments/${c.id}/reactions`, PAGE, 'per_page');
        const list = map.get(n) ?? [];
        list.push({
          user: userOf(c.user),
          body: c.body ?? '',
          createdAt: new Date(c.created_at),
          updatedAt: new Date(c.updated_at),
          reactions: reactionsOf(reactions),
        });
        map.set(n, list);
      }
      return map;
    })();
    return repoComments;
  }

  async function issueOf(i: HIssue): Promise<SourceIssue> {
    const reactions = await api.all<HReaction>(`${base}/issues/${i.number}/reactions`, PAGE, 'per_page');
    return {
      number: i.number,
      title: i.title,
      body: i.body ?? '',
      user: userOf(i.user),
      closed: i.state === 'closed',
      locked: i.locked ?? false,
      labels: i.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
      milestone: i.milestone?.title ?? null,
      createdAt: new Date(i.created_at),
      updatedAt: new Date(i.updated_at),
      closedAt: dateOf(i.closed_at),
      reactions: reactionsOf(reactions),
      comments: (await commentsByIssue()).get(i.number) ?? [],
      pull: null,
    };
  }

  return {
    async cloneUrl() {
      return (await api.json<{ clone_url: string }>(base)).clone_url;
    },
    async labels() {
      const list = await api.all<{ name: string; color: string; description: string | null }>(`${base}/labels`, PAGE, 'per_page');
      return list.map((l) => ({ name: l.name, color: l.color, description: l.description ?? '', exclusive: false }));
    },
    async milestones() {
      const list = await api.all<{
        title: string;
        description: string | null;
        state: string;
        due_on: string | null;
        created_at: string;
        closed_at: string | null;
      }>(`${base}/milestones?state=all`, PAGE, 'per_page');
      return list.map(milestoneFromApi);
    },
    async releases() {
      const list = await api.all<{
        tag_name: string;
        target_commitish: string;
        name: string | null;
        body?: string | null;
        draft: boolean;
        prerelease: boolean;
        author: HUser;
        created_at: string;
        assets: { name: string; size: number; download_count: number; created_at: string; browser_download_url: string }[];
      }>(`${base}/releases`, PAGE, 'per_page');
      return list.map((r) => ({
        tagName: r.tag_name,
        target: r.target_commitish,
        name: r.name ?? '',
        body: r.body ?? '',
        draft: r.draft,
        prerelease: r.prerelease,
        author: userOf(r.author),
        createdAt: new Date(r.created_at),
        assets: r.assets.map((a) => ({
          name: a.name,
          size: a.size,
          downloadCount: a.download_count,
          createdAt: new Date(a.created_at),
          url: a.browser_download_url,
        })),
      }));
    },
    async issues() {
      const list = await api.all<HIssue>(`${base}/issues?state=all&sort=created&direction=asc`, PAGE, 'per_page');
      const out: SourceIssue[] = [];
      for (const i of list) if (!i.pull_request) out.push(await issueOf(i));
      return out;
    },
    async pulls() {
      const list = await api.all<HPull>(`${base}/pulls?state=all&sort=created&direction=asc`, PAGE, 'per_page');
      const out: SourceIssue[] = [];
      for (const p of list) {
        const issue = await issueOf(p);
        const reviews = await api.all<{ user: HUser | null; state: string; body: string; commit_id: string; submitted_at?: string }>(
          `${base}/pulls/${p.number}/reviews`,
          PAGE,
          'per_page',
        );
        issue.pull = {
          baseBranch: p.base.ref,
          headBranch: p.head.ref,
          headSha: p.head.sha,
          merged: p.merged_at !== null,
          mergedAt: dateOf(p.merged_at),
          mergeCommitSha: p.merge_commit_sha ?? '',
          reviews: reviews.map((r) => ({
            user: userOf(r.user),
            state: (r.state === 'CHANGES_REQUESTED' ? 'REQUEST_CHANGES' : r.state === 'APPROVED' ? 'APPROVED' : 'COMMENT') as 'COMMENT',
            body: r.body,
            commitId: r.commit_id,
            submittedAt: dateOf(r.submitted_at) ?? new Date(p.created_at),
          })),
        };
        out.push(issue);
      }
      return out;
    },
    download: (asset) => api.bytes(asset.url),
  };
}
