import { z } from 'zod';
import { qBool, qCsv, qEnum, qOneOf, qString, qTime } from '../params.ts';
import { goName, zBool, zInt } from '../validation.ts';
import { Attachment } from './attachment.ts';
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
  assets: z.array(Attachment),
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

const state = qEnum(['open', 'closed', 'all'], 'open', 'whether issue is open or closed');
const labels = qCsv('comma separated list of label names; only issues with any of these labels (unknown names are ignored)');
const milestones = qCsv('comma separated list of milestone names or ids; only issues in any of these milestones');
const q = qString('search string');
const type = qOneOf(['issues', 'pulls'], 'filter by type (issues / pulls) if set');
const since = qTime('only show items updated after the given time (RFC 3339)');
const before = qTime('only show items updated before the given time (RFC 3339)');

/** Query of GET /repos/{o}/{r}/issues (page/limit are added by the list route). */
export const ListIssuesQuery = z.object({
  state,
  labels,
  milestones,
  q,
  type,
  since,
  before,
  created_by: qString('only show items which were created by the given user'),
  assigned_by: qString('only show items for which the given user is assigned'),
  mentioned_by: qString('only show items in which the given user was mentioned'),
});

/** Query of GET /repos/issues/search (page/limit are added by the list route). */
export const SearchIssuesQuery = z.object({
  state,
  labels,
  milestones,
  q,
  type,
  since,
  before,
  assigned: qBool('filter (issues / pulls) assigned to you', false),
  created: qBool('filter (issues / pulls) created by you', false),
  mentioned: qBool('filter (issues / pulls) mentioning you', false),
  owner: qString('filter by owner'),
});

/** Gitea `EditDeadlineOption`: `due_date` is required; null removes the deadline (as Gitea's summary says). */
export const EditDeadlineOption = z.object({ due_date: goName(zDateTime.nullable(), 'Deadline') });

/** Gitea `IssueDeadline`. */
export const IssueDeadline = z.object({ due_date: z.string().nullable() });
