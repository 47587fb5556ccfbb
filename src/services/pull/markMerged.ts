import type { Models } from '../../db/client.ts';
import { shiftClosedCountersOfIssue } from '../../db/labelCounters.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { refreshMilestone } from '../issue/create.ts';
import { withRetry } from '../dbErrors.ts';
import type { MergeDo, PullRows } from './types.ts';
import type { RepoFacts } from '../../loaders/permissionLoaders.ts';
import { withEventIssue, withEventRepo } from '../../notify/eventReads.ts';

/** How a pull request became merged. */
export interface MergedFacts {
  commitId: string;
  mergedAt: Date;
  mergerId: number;
  /** MANUALLY_MERGED for merges done outside Forgegraph; the merge keeps the row's status otherwise (as Gitea). */
  status: Models.PullRequestStatus;
  /** What the `pull.merged` event reports: the style, `manually-merged`, or `autodetected`. */
  how: MergeDo | 'autodetected';
  mergeBase?: string;
  /** Merged by a scheduled auto-merge (the feed shows auto_merge_pull_request). */
  auto?: boolean;
  /** The base repository's access facts, when the caller read them: kept with `pull.merged` for its subscribers. */
  repoFacts?: RepoFacts | undefined;
}

/**
 * Gitea SetMerged, in one transaction: the pull request row becomes merged (only if it was not, so of two
 * concurrent merges one wins), the issue is closed with a MERGE_PULL timeline comment, `numClosedPulls`, the
 * milestone and label counters stay exact, and `pull.merged` is emitted. Returns the rows as stored, or null
 * when the pull request was merged meanwhile. Closing does not wait for open dependencies: the code is merged.
 */
export async function markPullMerged(cx: ServiceContext, rows: PullRows, facts: MergedFacts): Promise<PullRows | null> {
  return withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const done = await tx.pullRequest.updateMany({
        where: { id: rows.pull.id, hasMerged: false },
        data: {
          hasMerged: true,
          mergedCommitId: facts.commitId,
          mergedAt: facts.mergedAt,
          mergerId: facts.mergerId,
          status: facts.status,
          conflictedFiles: '[]',
          ...(facts.mergeBase ? { mergeBase: facts.mergeBase } : {}),
        },
      });
      if (done.count === 0) return null;
      await tx.pullAutoMerge.deleteMany({ where: { pullId: rows.pull.id } });
      const closed = await tx.issue.updateMany({
        where: { id: rows.issue.id, isClosed: false },
        data: { isClosed: true, closedAt: new Date() },
      });
      if (closed.count > 0) {
        await tx.repository.update({ where: { id: rows.issue.repoId }, data: { numClosedPulls: { increment: 1 } } });
        await tx.comment.create({ data: { type: 'MERGE_PULL', posterId: facts.mergerId, issueId: rows.issue.id } });
        await refreshMilestone(tx, rows.issue.milestoneId);
        await shiftClosedCountersOfIssue(tx, rows.issue.id, true);
      }
      // The merge changes neither the issue's title nor the repository's facts: the subscribers read neither again.
      const event = {
        type: 'pull.merged',
        pullId: rows.pull.id,
        issueId: rows.issue.id,
        repoId: rows.issue.repoId,
        index: rows.issue.index,
        how: facts.how,
        commitId: facts.commitId,
        actorId: facts.mergerId,
        ...(facts.auto ? { auto: true } : {}),
      } as const;
      emit(withEventRepo(withEventIssue(event, rows.issue), facts.repoFacts));
      const pull = await tx.pullRequest.findUniqueOrThrow({ where: { id: rows.pull.id }, include: { issue: true } });
      const { issue, ...row } = pull;
      return { issue, pull: row };
    }),
  );
}
