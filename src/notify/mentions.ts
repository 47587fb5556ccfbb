import type { Db } from '../db/client.ts';
import { eventCommentContent, eventIssue } from './eventReads.ts';
import { isUniqueViolation } from '../db/prismaErrors.ts';
import { repoPermissionLoader } from '../loaders/permissionLoaders.ts';
import { atLeast } from '../permissions/accessMode.ts';
import { canRead } from '../permissions/repoPermission.ts';
import type { DomainEvent } from './events.ts';
import type { Subscriber } from './notifier.ts';

/** Go RE2's `\s` (ASCII only). */
const S = '[\\t\\n\\f\\r ]';
/** Gitea modules/references mentionPattern: `@user` or `@org/team`, delimited by spaces, brackets or punctuation. */
const MENTION = new RegExp(`(?:${S}|^|\\(|\\[)(@[-\\w][-.\\w]*?|@[-\\w][-.\\w]*?/[-\\w][-.\\w]*?)(?:${S}|$|[:,;.?!](?:${S}|$)|'|\\)|\\])`);

/**
 * The text a reader sees, roughly as Gitea's mdstripper leaves it for reference scanning: code blocks and code
 * spans, link texts and URLs, and HTML tags are dropped; emphasis and strike-through markers break words.
 */
export function stripMarkdown(content: string): string {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  let fence: string | null = null;
  let prevBlank = true;
  let inIndented = false;
  for (const line of lines) {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (open && open[1]!.startsWith(fence)) fence = null;
      kept.push('');
      continue;
    }
    if (open) {
      fence = open[1]!;
      kept.push('');
      continue;
    }
    const blank = line.trim() === '';
    const indented = /^( {4}|\t)/.test(line) && !blank;
    inIndented = indented && (prevBlank || inIndented);
    kept.push(inIndented ? '' : line);
    prevBlank = blank;
  }
  return kept
    .join('\n')
    .replace(/(`+)[\s\S]*?\1/g, '\n')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '\n$1\n')
    .replace(/\[[^\]]*\]\([^)]*\)/g, '\n')
    .replace(/<[a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*>/g, '\n')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '\n')
    .replace(/\*+|~~+/g, '\n')
    .replace(/(^|[^A-Za-z0-9])_+|_+(?=[^A-Za-z0-9]|$)/g, '$1\n');
}

/** Whether a text may mention anyone: every mention starts with `@`, so most texts need no stripping or scan. */
export const mayMention = (content: string): boolean => content.includes('@');

/**
 * Gitea references.FindAllMentionsMarkdown: the names (without `@`) mentioned in a Markdown body, in order,
 * unvalidated; `org/team` for team mentions.
 */
export function findMentions(content: string): string[] {
  if (!mayMention(content)) return [];
  const text = stripMarkdown(content);
  const names: string[] = [];
  let pos = 0;
  // Gitea scans from the end of each mention, so "@a @b" finds both (the shared space is not consumed).
  while (pos <= text.length) {
    const rest = text.slice(pos);
    const m = MENTION.exec(rest);
    if (!m || m[1] === undefined) break;
    const start = m.index + m[0].indexOf(m[1]);
    names.push(m[1].slice(1));
    pos += start + m[1].length;
  }
  return names;
}

/** Where a mention was written: the issue, the text and its author. */
export interface Subject {
  issueId: number;
  content: string;
  actorId: number;
}

/**
 * The users `names` (from findMentions) mention on an issue, as Gitea resolves them: active users who may read
 * the issue's unit, never the author nor users who blocked the author; `@org/team` of the repository's
 * organization gives the members of a team with access to that unit.
 */
export async function mentionedUserIds(db: Db, s: Subject, names: readonly string[]): Promise<number[]> {
  const issue = await db.issue.findUnique({
    where: { id: s.issueId },
    select: { isPull: true, repoId: true, repo: { select: { owner: { select: { id: true, type: true, lowerName: true } } } } },
  });
  const doer = await db.user.findUnique({ where: { id: s.actorId }, select: { lowerName: true } });
  if (!issue || !doer) return [];
  const owner = issue.repo.owner;
  const unit = issue.isPull ? 'PULL_REQUESTS' : 'ISSUES';
  const lower = [...new Set(names.map((n) => n.toLowerCase()))].filter((n) => n !== doer.lowerName);
  const teamNames =
    owner.type === 'ORGANIZATION'
      ? lower.filter((n) => n.startsWith(`${owner.lowerName}/`)).map((n) => n.slice(owner.lowerName.length + 1))
      : [];
  const userNames = lower.filter((n) => !n.includes('/'));
  const ids = new Set<number>();
  if (teamNames.length) {
    const teams = await db.team.findMany({
      where: {
        orgId: owner.id,
        lowerName: { in: teamNames },
        OR: [{ repos: { some: { repoId: issue.repoId } } }, { includesAllRepositories: true }],
      },
      select: { id: true, authorize: true, units: { where: { type: unit }, select: { accessMode: true } } },
    });
    const granted = teams.filter((t) => atLeast(t.authorize, 'ADMIN') || t.units.some((u) => u.accessMode !== 'NONE')).map((t) => t.id);
    if (granted.length) {
      const members = await db.teamUser.findMany({
        where: { teamId: { in: granted }, user: { isActive: true, prohibitLogin: false } },
        select: { userId: true, user: { select: { lowerName: true } } },
      });
      for (const m of members) if (m.user.lowerName !== doer.lowerName) ids.add(m.userId);
    }
  }
  if (userNames.length) {
    const users = await db.user.findMany({
      where: { lowerName: { in: userNames }, type: 'INDIVIDUAL', isActive: true, prohibitLogin: false },
    });
    for (const user of users) {
      if (ids.has(user.id)) continue;
      const perm = await repoPermissionLoader(db, user).load(issue.repoId);
      if (canRead(perm, unit)) ids.add(user.id);
    }
  }
  if (!ids.size) return [];
  const blockers = await db.block.findMany({ where: { blockeeId: s.actorId, blockerId: { in: [...ids] } }, select: { blockerId: true } });
  for (const b of blockers) ids.delete(b.blockerId);
  return [...ids];
}

/**
 * Mentions (Gitea FindAndUpdateIssueMentions): `@name` in an issue's body or a comment marks the named users
 * as mentioned on the issue (IssueUser.isMentioned), which `mentioned_by=`/`mentioned=true` filter on. Only
 * active users who may read the issue count, never the author, nor users who blocked the author; `@org/team`
 * of the repository's organization mentions the members of a team with access to the issue's unit.
 */
export function mentionSubscriber(db: Db): Subscriber {
  async function subjectOf(event: DomainEvent): Promise<Subject | null> {
    switch (event.type) {
      case 'issue.created':
      case 'issue.updated': {
        if (event.type === 'issue.updated' && !event.fields.includes('body')) return null;
        const issue = await eventIssue(db, event);
        return issue ? { issueId: event.issueId, content: issue.content, actorId: event.actorId } : null;
      }
      case 'comment.created':
      case 'comment.updated': {
        const content = await eventCommentContent(db, event);
        return content === null ? null : { issueId: event.issueId, content, actorId: event.actorId };
      }
      default:
        return null;
    }
  }

  async function markMentioned(issueId: number, userId: number): Promise<void> {
    const { count } = await db.issueUser.updateMany({ where: { issueId, userId }, data: { isMentioned: true } });
    if (count) return;
    try {
      await db.issueUser.create({ data: { issueId, userId, isMentioned: true } });
    } catch (err) {
      // Created concurrently (unique userId+issueId): mark that row instead.
      if (!isUniqueViolation(err)) throw err;
      await db.issueUser.updateMany({ where: { issueId, userId }, data: { isMentioned: true } });
    }
  }

  return {
    name: 'mentions',
    async handle(event: DomainEvent) {
      const subject = await subjectOf(event);
      if (!subject) return;
      const names = findMentions(subject.content);
      if (!names.length) return;
      for (const userId of await mentionedUserIds(db, subject, names)) await markMentioned(subject.issueId, userId);
    },
  };
}
