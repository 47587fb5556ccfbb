// What a downloader reads from a source forge, in one shape for every service (Gitea's modules/migration/*).

/** A person on the source forge (recorded as original_author / original_author_id). */
export interface SourceUser {
  login: string;
  id: number;
}

export interface SourceLabel {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
}

export interface SourceMilestone {
  title: string;
  description: string;
  closed: boolean;
  dueOn: Date | null;
  createdAt: Date | null;
  closedAt: Date | null;
}

export interface SourceReaction {
  user: SourceUser;
  content: string;
}

export interface SourceComment {
  user: SourceUser;
  body: string;
  createdAt: Date;
  updatedAt: Date;
  reactions: SourceReaction[];
}

/** An issue or a pull request (same number sequence). */
export interface SourceIssue {
  number: number;
  title: string;
  body: string;
  user: SourceUser;
  closed: boolean;
  locked: boolean;
  labels: string[];
  milestone: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  reactions: SourceReaction[];
  comments: SourceComment[];
  pull: SourcePull | null;
}

export interface SourcePull {
  baseBranch: string;
  headBranch: string;
  headSha: string;
  merged: boolean;
  mergedAt: Date | null;
  mergeCommitSha: string;
  reviews: SourceReview[];
}

export interface SourceReview {
  user: SourceUser;
  state: 'APPROVED' | 'REQUEST_CHANGES' | 'COMMENT' | 'PENDING';
  body: string;
  commitId: string;
  submittedAt: Date;
}

export interface SourceRelease {
  tagName: string;
  target: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  author: SourceUser;
  createdAt: Date;
  assets: SourceAsset[];
}

export interface SourceAsset {
  name: string;
  size: number;
  downloadCount: number;
  createdAt: Date;
  /** Where the file is fetched (only from the source's own host). */
  url: string;
}

/** A downloader: the source's items, each kind read in full (paged underneath). */
export interface Downloader {
  /** The URL to clone (the source's `clone_url`), checked against the address policy again before use. */
  cloneUrl(): Promise<string>;
  labels(): Promise<SourceLabel[]>;
  milestones(): Promise<SourceMilestone[]>;
  releases(): Promise<SourceRelease[]>;
  /** Issues without pull requests, with their comments and reactions. */
  issues(): Promise<SourceIssue[]>;
  /** Pull requests (as issues with `pull` set), with comments, reactions and reviews. */
  pulls(): Promise<SourceIssue[]>;
  /** An asset's bytes. */
  download(asset: SourceAsset): Promise<Buffer>;
}

/** A date from an API string (null/empty → null). */
export function dateOf(text: string | null | undefined): Date | null {
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) || d.getTime() <= 0 ? null : d;
}

/** The milestone fields Gitea's and GitHub's APIs share (the same names and meanings in both). */
export interface ApiMilestone {
  title: string;
  description?: string | null;
  state: string;
  due_on?: string | null;
  created_at?: string;
  closed_at?: string | null;
}

/** A source milestone from either API's milestone JSON. */
export function milestoneFromApi(m: ApiMilestone): SourceMilestone {
  return {
    title: m.title,
    description: m.description ?? '',
    closed: m.state === 'closed',
    dueOn: dateOf(m.due_on),
    createdAt: dateOf(m.created_at),
    closedAt: dateOf(m.closed_at),
  };
}
