import { z } from 'zod';
import { zBool, zInt } from '../validation.ts';
import { Label } from './label.ts';
import { Project } from './project.ts';
import { User } from './user.ts';

/** Gitea `Milestone`, fields in Gitea's order. */
export const Milestone = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  state: z.enum(['open', 'closed']),
  open_issues: z.number().int(),
  closed_issues: z.number().int(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  due_on: z.string().nullable(),
});
/** A Gitea Milestone as sent on the wire. */
export type Milestone = z.infer<typeof Milestone>;

/** Gitea `PullRequestMeta`. */
export const PullRequestMeta = z.object({
  merged: z.boolean(),
  merged_at: z.string().nullable(),
  draft: z.boolean(),
  html_url: z.string(),
});

/** Gitea `RepositoryMeta`. */
export const RepositoryMeta = z.object({ id: z.number().int(), name: z.string(), owner: z.string(), full_name: z.string() });

/** Gitea `Issue` (modules/structs/issue.go), fields in Gitea's order; `assignees` and `projects` null when empty. */
export const Issue = z.object({
  id: z.number().int(),
  url: z.string(),
  html_url: z.string(),
  number: z.number().int(),
  user: User,
  original_author: z.string(),
  original_author_id: z.number().int(),
  title: z.string(),
  body: z.string(),
  ref: z.string(),
  assets: z.array(z.unknown()),
  labels: z.array(Label),
  milestone: Milestone.nullable(),
  assignee: User.nullable(),
  assignees: z.array(User).nullable(),
  state: z.enum(['open', 'closed']),
  is_locked: z.boolean(),
  comments: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  due_date: z.string().nullable(),
  time_estimate: z.number().int(),
  pull_request: PullRequestMeta.nullable(),
  repository: RepositoryMeta,
  pin_order: z.number().int(),
  content_version: z.number().int(),
  projects: z.array(Project).nullable(),
});
/** A Gitea Issue as sent on the wire. */
export type Issue = z.infer<typeof Issue>;

const zDateTime = z.iso.datetime({ offset: true });

/** Gitea `CreateIssueOption`; `title` is checked by the service so that 423 (archived) comes before 422. */
export const CreateIssueOption = z.object({
  title: z.string().optional(),
  body: z.string().optional(),
  ref: z.string().optional(),
  assignee: z.string().optional(),
  assignees: z.array(z.string()).nullable().optional(),
  due_date: zDateTime.nullable().optional(),
  milestone: zInt.nullable().optional(),
  labels: z.array(zInt).nullable().optional(),
  projects: z.array(zInt).nullable().optional(),
  closed: zBool.optional(),
});

/** Gitea `EditIssueOption`: every field optional; only given fields change. */
export const EditIssueOption = z.object({
  title: z.string().optional(),
  body: z.string().nullable().optional(),
  ref: z.string().nullable().optional(),
  assignee: z.string().nullable().optional(),
  assignees: z.array(z.string()).nullable().optional(),
  milestone: zInt.nullable().optional(),
  state: z.string().nullable().optional(),
  due_date: zDateTime.nullable().optional(),
  unset_due_date: zBool.nullable().optional(),
  content_version: zInt.nullable().optional(),
  projects: z.array(zInt).nullable().optional(),
});

const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);
const qs = z.preprocess(first, z.string().optional());
const csv = z.preprocess(first, z.string().optional()).transform((v) =>
  v
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined,
);
const state = z
  .preprocess(first, z.string().optional())
  .transform((v): 'open' | 'closed' | 'all' => (v === 'closed' || v === 'all' ? v : 'open'));
const type = z.preprocess(first, z.string().optional()).transform((v) => (v === 'issues' || v === 'pulls' ? v : undefined));
const bool = z
  .preprocess(first, z.string().optional())
  .transform((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined));

/** Query of GET /repos/{o}/{r}/issues (page/limit are read separately). */
export const ListIssuesQuery = z.object({
  state,
  labels: csv,
  milestones: csv,
  q: qs,
  type,
  since: qs,
  before: qs,
  created_by: qs,
  assigned_by: qs,
  mentioned_by: qs,
});

/** Query of GET /repos/issues/search (page/limit are read separately). */
export const SearchIssuesQuery = z.object({
  state,
  labels: csv,
  milestones: csv,
  q: qs,
  type,
  since: qs,
  before: qs,
  assigned: bool,
  created: bool,
  mentioned: bool,
  owner: qs,
});
