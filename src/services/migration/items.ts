// The uploader (Gitea services/migrations/gitea_uploader.go): the source's items written as our rows, numbers
// kept, authors unknown here recorded as original_author / original_author_id, counters recomputed at the end.
import { Readable } from 'node:stream';
import type { DbTx, Models } from '../../db/client.ts';
import { refreshLabelCounters } from '../../db/labelCounters.ts';
import { mergeBase } from '../../git/compare.ts';
import { hasCommit } from '../../git/resolveCommits.ts';
import { repoPath } from '../../git/repoPath.ts';
import { storeAttachment } from '../attachment/attachment.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { refreshMilestone } from '../issue/create.ts';
import { setHiddenRef } from '../repo/moveRefs.ts';
import { apiAuthorization, type RemoteCredentials } from './credentials.ts';
import { giteaDownloader } from './giteaDownloader.ts';
import { githubDownloader } from './githubDownloader.ts';
import type { Downloader, SourceIssue, SourceReaction, SourceUser } from './source.ts';

type Repo = Models.Repository;

/** What a migration asks of the source's API. */
export interface ItemsPlan {
  service: string;
  cloneUrl: string;
  items: { milestones: boolean; labels: boolean; issues: boolean; pullRequests: boolean; releases: boolean };
}

const REVIEW_TYPES: Record<string, Models.ReviewType> = {
  APPROVED: 'APPROVE',
  REQUEST_CHANGES: 'REJECT',
  COMMENT: 'COMMENT',
  PENDING: 'PENDING',
};

/** The author columns of a migrated row: the migrating user posts it, on behalf of the source's user. */
function authored(user: SourceUser): { originalAuthor: string; originalAuthorId: number } {
  return { originalAuthor: user.login, originalAuthorId: user.id };
}

function reactionRows(issueId: number, commentId: number, reactions: readonly SourceReaction[]): Models.Prisma.ReactionCreateManyInput[] {
  return reactions.map((r) => ({ type: r.content, issueId, commentId, userId: null, ...authored(r.user) }));
}

async function writeIssue(
  tx: DbTx,
  ctx: { repo: Repo; doer: Models.User; labels: Map<string, number>; milestones: Map<string, number> },
  i: SourceIssue,
): Promise<{ id: number; headSha: string | null }> {
  const issue = await tx.issue.create({
    data: {
      repoId: ctx.repo.id,
      index: i.number,
      posterId: ctx.doer.id,
      ...authored(i.user),
      title: i.title,
      content: i.body,
      milestoneId: i.milestone ? (ctx.milestones.get(i.milestone) ?? null) : null,
      isClosed: i.closed,
      isPull: i.pull !== null,
      isLocked: i.locked,
      numComments: i.comments.length,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      closedAt: i.closed ? (i.closedAt ?? i.updatedAt) : null,
    },
  });
  const labelIds = i.labels.map((n) => ctx.labels.get(n)).filter((id): id is number => id !== undefined);
  if (labelIds.length) await tx.issueLabel.createMany({ data: labelIds.map((labelId) => ({ issueId: issue.id, labelId })) });
  const reactions = reactionRows(issue.id, 0, i.reactions);
  for (const c of i.comments) {
    const comment = await tx.comment.create({
      data: {
        type: 'COMMENT',
        issueId: issue.id,
        posterId: ctx.doer.id,
        ...authored(c.user),
        content: c.body,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
      },
    });
    reactions.push(...reactionRows(issue.id, comment.id, c.reactions));
  }
  if (reactions.length) await tx.reaction.createMany({ data: reactions });
  if (!i.pull) return { id: issue.id, headSha: null };
  for (const r of i.pull.reviews) {
    await tx.review.create({
      data: {
        type: REVIEW_TYPES[r.state] ?? 'COMMENT',
        issueId: issue.id,
        reviewerId: ctx.doer.id,
        ...authored(r.user),
        content: r.body,
        commitId: r.commitId,
        official: r.state === 'APPROVED' || r.state === 'REQUEST_CHANGES',
        createdAt: r.submittedAt,
        updatedAt: r.submittedAt,
      },
    });
  }
  return { id: issue.id, headSha: i.pull.headSha };
}

/** A pull request's row: its head under refs/pull/N/head (mirrored from the source, or set from the head commit). */
async function writePull(cx: ServiceContext, repo: Repo, issueId: number, i: SourceIssue): Promise<void> {
  const pull = i.pull;
  if (!pull) return;
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const headRef = `refs/pull/${i.number}/head`;
  const hasHead = pull.headSha !== '' && (await hasCommit(gitDir, pull.headSha));
  if (hasHead) await setHiddenRef(gitDir, headRef, pull.headSha);
  const base = hasHead ? await mergeBase(gitDir, `refs/heads/${pull.baseBranch}`, pull.headSha).catch(() => null) : null;
  await cx.db.pullRequest.create({
    data: {
      issueId,
      index: i.number,
      baseRepoId: repo.id,
      headRepoId: repo.id,
      baseBranch: pull.baseBranch,
      headBranch: pull.headBranch,
      headCommitId: hasHead ? pull.headSha : '',
      mergeBase: base ?? '',
      status: pull.merged ? 'MERGEABLE' : 'CHECKING',
      hasMerged: pull.merged,
      mergedAt: pull.mergedAt,
      mergedCommitId: pull.mergeCommitSha,
    },
  });
}

/** Counters exact afterwards: issue and pull counts, milestone and label counts, the next issue number. */
async function recount(tx: DbTx, repoId: number): Promise<void> {
  const count = (where: Models.Prisma.IssueWhereInput) => tx.issue.count({ where: { repoId, ...where } });
  const [numIssues, numClosedIssues, numPulls, numClosedPulls, numMilestones, numClosedMilestones, max] = await Promise.all([
    count({ isPull: false }),
    count({ isPull: false, isClosed: true }),
    count({ isPull: true }),
    count({ isPull: true, isClosed: true }),
    tx.milestone.count({ where: { repoId } }),
    tx.milestone.count({ where: { repoId, isClosed: true } }),
    tx.issue.aggregate({ where: { repoId }, _max: { index: true } }),
  ]);
  await tx.repository.update({
    where: { id: repoId },
    data: { numIssues, numClosedIssues, numPulls, numClosedPulls, numMilestones, numClosedMilestones },
  });
  const maxIndex = max._max.index ?? 0;
  await tx.issueIndex.upsert({ where: { repoId }, create: { repoId, maxIndex }, update: { maxIndex } });
  for (const m of await tx.milestone.findMany({ where: { repoId }, select: { id: true } })) await refreshMilestone(tx, m.id);
  const labels = await tx.label.findMany({ where: { repoId }, select: { id: true } });
  await refreshLabelCounters(
    tx,
    labels.map((l) => l.id),
  );
}

/** Oldest first, so that row order follows the source's numbering. */
const byNumber = (a: SourceIssue, b: SourceIssue): number => a.number - b.number;

/** The downloader of the payload's service (none for plain git). */
export function downloaderOf(p: ItemsPlan, credentials: RemoteCredentials): Downloader | null {
  const auth = apiAuthorization(credentials);
  if (p.service === 'gitea' || p.service === 'gogs') return giteaDownloader(p.cloneUrl, auth);
  if (p.service === 'github') return githubDownloader(p.cloneUrl, auth);
  return null;
}

/**
 * Migrates the items the payload asks for from the source's API, in Gitea's order: milestones, labels,
 * releases (with their assets), issues, pull requests; then the counters. Plain git sources have none.
 */
export async function migrateItems(
  cx: ServiceContext,
  repo: Repo,
  doer: Models.User,
  p: ItemsPlan,
  source: Downloader | null,
): Promise<void> {
  if (!source) return;
  const milestones = new Map<string, number>();
  const labels = new Map<string, number>();
  if (p.items.milestones) {
    for (const m of await source.milestones()) {
      const row = await cx.db.milestone.create({
        data: {
          repoId: repo.id,
          name: m.title,
          content: m.description,
          isClosed: m.closed,
          deadlineAt: m.dueOn,
          closedAt: m.closed ? (m.closedAt ?? new Date()) : null,
          ...(m.createdAt ? { createdAt: m.createdAt } : {}),
        },
      });
      milestones.set(m.title, row.id);
    }
  }
  if (p.items.labels) {
    for (const l of await source.labels()) {
      const row = await cx.db.label.create({
        data: { repoId: repo.id, name: l.name, color: `#${l.color}`, description: l.description, exclusive: l.exclusive },
      });
      labels.set(l.name, row.id);
    }
  }
  if (p.items.releases) {
    for (const r of await source.releases()) {
      const release = await cx.db.release.create({
        data: {
          repoId: repo.id,
          publisherId: doer.id,
          ...authored(r.author),
          tagName: r.tagName,
          lowerTagName: r.tagName.toLowerCase(),
          target: r.target,
          title: r.name,
          note: r.body,
          isDraft: r.draft,
          isPrerelease: r.prerelease,
          createdAt: r.createdAt,
        },
      });
      for (const a of r.assets) {
        const bytes = await source.download(a);
        const stored = await storeAttachment(
          cx,
          { repoId: repo.id, releaseId: release.id },
          { name: a.name, content: Readable.from(bytes) },
          [],
        );
        await cx.db.attachment.update({
          where: { id: stored.id },
          data: { downloadCount: a.downloadCount, createdAt: a.createdAt, uploaderId: doer.id },
        });
      }
    }
  }
  const ctx = { repo, doer, labels, milestones };
  if (p.items.issues) {
    for (const i of (await source.issues()).sort(byNumber)) await withTx(cx, (tx) => writeIssue(tx, ctx, i));
  }
  if (p.items.pullRequests) {
    for (const i of (await source.pulls()).sort(byNumber)) {
      const { id } = await withTx(cx, (tx) => writeIssue(tx, ctx, i));
      await writePull(cx, repo, id, i);
    }
  }
  await withTx(cx, (tx) => recount(tx, repo.id));
}
