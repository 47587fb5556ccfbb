// Commits as the API shows them: the users behind their e-mails and, when asked, the files they changed.
import type { Models } from '../../db/client.ts';
import { commitFileStats, type CompareCommit, type DiffFile } from '../../git/compare.ts';
import type { ServiceContext } from '../context.ts';
import { verifyCommits, type CommitVerification } from '../gpg/verifyCommits.ts';

/** A commit with what Gitea's Commit JSON shows of it. */
export interface CommitView {
  commit: CompareCommit;
  /** The users whose e-mail the author and committer used (null when none matches). */
  author: Models.User | null;
  committer: Models.User | null;
  /** Files changed against the first parent; null when not asked for. */
  files: DiffFile[] | null;
  /** The signature's verification; null when not asked for. */
  verification: CommitVerification | null;
}

/** Users by the e-mail addresses commits carry (activated addresses, then primary e-mails), in two queries. */
export async function usersByEmail(cx: ServiceContext, emails: readonly string[]): Promise<Map<string, Models.User>> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
  const out = new Map<string, Models.User>();
  if (!lower.length) return out;
  const [addresses, primaries] = await Promise.all([
    cx.db.emailAddress.findMany({ where: { lowerEmail: { in: lower }, isActivated: true }, include: { user: true } }),
    cx.db.user.findMany({ where: { email: { in: [...new Set(emails)] }, type: 'INDIVIDUAL' } }),
  ]);
  for (const u of primaries) out.set(u.email.toLowerCase(), u);
  for (const a of addresses) out.set(a.lowerEmail, a.user);
  return out;
}

/**
 * Commit views of `commits` in bulk: two queries for the users, one git process for the files when asked, and
 * when asked the signatures' verification (one git process, a constant number of statements).
 */
export async function commitViews(
  cx: ServiceContext,
  gitDir: string,
  commits: readonly CompareCommit[],
  withFiles: boolean,
  withVerification = false,
): Promise<CommitView[]> {
  const [users, files, verifications] = await Promise.all([
    usersByEmail(
      cx,
      commits.flatMap((c) => [c.author.email, c.committer.email]),
    ),
    withFiles
      ? commitFileStats(
          gitDir,
          commits.map((c) => c.sha),
        )
      : null,
    withVerification
      ? verifyCommits(
          cx,
          gitDir,
          commits.map((c) => c.sha),
        )
      : null,
  ]);
  return commits.map((commit) => ({
    commit,
    author: users.get(commit.author.email.toLowerCase()) ?? null,
    committer: users.get(commit.committer.email.toLowerCase()) ?? null,
    files: files ? (files.get(commit.sha) ?? []) : null,
    verification: verifications?.get(commit.sha) ?? null,
  }));
}
