import { shiftLabelCounters } from '../../db/labelCounters.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { deleteHiddenRef } from '../repo/moveRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { refreshMilestone } from './create.ts';
import { withRetry } from '../dbErrors.ts';
import { findIssueByIndex, lockIssueRow } from './issue.ts';

/**
 * Deletes an issue or pull request with everything it holds (DELETE /repos/{o}/{r}/issues/{index}, Gitea
 * DeleteIssue): repository administrators only. In one transaction: the issue row, whose comments, labels,
 * assignees, reactions, attachments, dependencies (both ways), watches, times, stopwatches, project cards,
 * reviews, notifications and pull request go with it by the database's cascades; the timeline entries of other
 * issues that point at it (references, dependency changes); its feed rows; the repository's, milestone's and
 * labels' counters. Its number is not given out again (the repository's counter keeps it). After the commit
 * a pull request's `refs/pull/{index}/head` is removed, and the `issue.deleted` event lets the attachment
 * sweep remove the files.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function deleteIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  if (!isRepoAdmin(access.perm)) {
    throw new PermissionDeniedError('user should be an owner or a collaborator with admin write of a repository');
  }
  const found = await findIssueByIndex(cx, access, index);
  const deleted = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      // Locked first: a label change of this issue committing meanwhile would escape the counters' shift below.
      const issue = await lockIssueRow(tx, found.id);
      if (!issue) return false;
      const [labels, comments] = await Promise.all([
        tx.issueLabel.findMany({ where: { issueId: issue.id }, select: { labelId: true } }),
        tx.comment.findMany({ where: { issueId: issue.id }, select: { id: true } }),
      ]);
      // Gitea DeleteIssueActions: the feed rows of its comments, and of its creation ("{index}|{title}").
      await tx.action.deleteMany({
        where: {
          OR: [
            { commentId: { in: comments.map((c) => c.id) } },
            {
              repoId: issue.repoId,
              opType: issue.isPull ? 'CREATE_PULL_REQUEST' : 'CREATE_ISSUE',
              content: { startsWith: `${issue.index}|` },
            },
          ],
        },
      });
      await tx.comment.deleteMany({ where: { OR: [{ refIssueId: issue.id }, { dependentIssueId: issue.id }] } });
      await tx.issue.delete({ where: { id: issue.id } });
      const one = { decrement: 1 };
      await tx.repository.update({
        where: { id: issue.repoId },
        data: issue.isPull
          ? { numPulls: one, ...(issue.isClosed ? { numClosedPulls: one } : {}) }
          : { numIssues: one, ...(issue.isClosed ? { numClosedIssues: one } : {}) },
      });
      await refreshMilestone(tx, issue.milestoneId);
      await shiftLabelCounters(
        tx,
        labels.map((l) => l.labelId),
        { issues: -1, closed: issue.isClosed ? -1 : 0 },
      );
      emit({
        type: 'issue.deleted',
        issueId: issue.id,
        repoId: issue.repoId,
        index: issue.index,
        isPull: issue.isPull,
        actorId: viewer.id,
      });
      return true;
    }),
  );
  if (deleted && found.isPull) {
    await deleteHiddenRef(repoPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name), `refs/pull/${found.index}/head`);
  }
}
