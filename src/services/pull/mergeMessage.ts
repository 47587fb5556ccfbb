import type { Models } from '../../db/client.ts';
import { compareCommits } from '../../git/compare.ts';
import type { MergeStyle } from '../../git/createMerge.ts';
import type { GitIdentity } from '../../git/identity.ts';
import type { RepoAccess } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import type { MergePullInput, PullRows } from './types.ts';

/** Gitea AddCommitMessageTailer: appends `Key: value` unless present, after a blank line unless the last line is a trailer. */
export function addCommitMessageTrailer(message: string, key: string, value: string): string {
  const trailer = `${key}: ${value}`;
  let msg = message.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  if (msg.includes(`\n${trailer}\n`) || msg.endsWith(`\n${trailer}`)) return msg;
  if (!msg.endsWith('\n')) msg += '\n';
  const lastStart = msg.lastIndexOf('\n', msg.length - 2);
  const colon = lastStart < 0 ? -1 : msg.indexOf(':', lastStart);
  const lastKey = lastStart >= 0 && colon >= 0 ? msg.slice(lastStart + 1, colon) : '';
  const trailerLike = lastKey !== '' && /^[A-Z][A-Za-z0-9-]*$/.test(lastKey) && msg.includes('-');
  if (!msg.endsWith('\n\n') && !trailerLike) msg += '\n';
  return msg + trailer;
}

/** What the default merge message needs of the pull request. */
interface MessageFacts {
  style: MergeStyle;
  title: string;
  index: number;
  headBranch: string;
  baseBranch: string;
  sameRepo: boolean;
  /** owner/name of the head repository; null once it is deleted. */
  headFullName: string | null;
  /** `!` when the base repository uses an external issue tracker, `#` otherwise. */
  reference: string;
}

/** Gitea getMergeMessage's title (the API uses no body): empty for rebase, "<title> (#N)" for squash, "Merge pull request …" otherwise. */
export function defaultMergeTitle(f: MessageFacts): string {
  if (f.style === 'rebase') return '';
  if (f.style === 'squash') return `${f.title} (${f.reference}${f.index})`;
  const from = f.sameRepo ? f.headBranch : f.headFullName === null ? `<deleted>:${f.headBranch}` : `${f.headFullName}:${f.headBranch}`;
  return `Merge pull request '${f.title}' (${f.reference}${f.index}) from ${from} into ${f.baseBranch}`;
}

/**
 * The author of a squash commit (Gitea getAuthorSignatureSquash): the author line of one of the pull request's
 * commits whose e-mail belongs to the poster, else the poster's own signature; the merger when the poster is gone.
 */
export async function squashAuthor(
  cx: ServiceContext,
  sides: { baseGitDir: string; baseSha: string; headSha: string },
  issue: Models.Issue,
  merger: Models.User,
  when: Date,
): Promise<GitIdentity> {
  const poster = issue.posterId === null ? null : await cx.db.user.findUnique({ where: { id: issue.posterId } });
  if (!poster) return gitSignature(cx, merger, when);
  const { commits } = await compareCommits(sides.baseGitDir, sides.baseSha, sides.headSha, { limit: 250 });
  const emails = [...new Set(commits.map((c) => c.author.email.toLowerCase()).filter(Boolean))];
  if (emails.length) {
    const owned = await cx.db.emailAddress.findMany({
      where: { userId: poster.id, lowerEmail: { in: emails } },
      select: { lowerEmail: true },
    });
    const mine = new Set([...owned.map((e) => e.lowerEmail), poster.email.toLowerCase()]);
    const commit = commits.find((c) => mine.has(c.author.email.toLowerCase()));
    if (commit && !/[<>\n\0]/.test(commit.author.name + commit.author.email) && commit.author.name.trim()) {
      return { name: commit.author.name, email: commit.author.email, when, tz: '+0000' };
    }
  }
  return gitSignature(cx, poster, when);
}

/** The commit message of a merge (Gitea MergePullRequest): the given or default title, then the given message. */
export async function mergeMessage(
  cx: ServiceContext,
  access: RepoAccess,
  rows: PullRows,
  headRepo: Models.Repository,
  style: MergeStyle,
  input: MergePullInput,
): Promise<string> {
  let message = (input.mergeTitleField ?? '').trim();
  if (!message) {
    // The enabled units came with the repository when the request read it (its access facts).
    const external = access.facts
      ? access.facts.units.some((u) => u.type === 'EXT_ISSUES')
      : await cx.db.repoUnit.findUnique({ where: { repoId_type: { repoId: access.repo.id, type: 'EXT_ISSUES' } }, select: { id: true } });
    message = defaultMergeTitle({
      style,
      title: rows.issue.title,
      index: rows.issue.index,
      headBranch: rows.pull.headBranch,
      baseBranch: rows.pull.baseBranch,
      sameRepo: headRepo.id === access.repo.id,
      headFullName: `${headRepo.ownerName}/${headRepo.name}`,
      reference: external ? '!' : '#',
    });
  }
  const extra = (input.mergeMessageField ?? '').trim();
  if (extra) message += `\n\n${extra}`;
  return message;
}
