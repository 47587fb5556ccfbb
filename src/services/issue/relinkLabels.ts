import type { DbTx, Models } from '../../db/client.ts';
import { insertRows } from '../../db/insertRows.ts';
import { relinkedToIssue } from '../../db/labelCounters.ts';

/**
 * Links `added` and unlinks `removed` labels of one issue inside `tx`, with the labels' counters moved by the issue's
 * state `isClosed` (relinkedToIssue): the label changes of the label routes and of an issue edit. Returns the LABEL
 * timeline comments of the change (content "1" added, "" removed, as Gitea) for the caller to write with its others.
 */
export async function relinkLabels(
  tx: DbTx,
  change: { issueId: number; actorId: number; added: number[]; removed: number[]; isClosed: boolean },
): Promise<Models.Prisma.CommentCreateManyInput[]> {
  const { issueId, actorId, added, removed, isClosed } = change;
  const { count: unlinked } = removed.length
    ? await tx.issueLabel.deleteMany({ where: { issueId, labelId: { in: removed } } })
    : { count: 0 };
  if (added.length)
    await insertRows(
      tx,
      'IssueLabel',
      added.map((labelId) => ({ issueId, labelId })),
    );
  await relinkedToIssue(tx, { added, removed, deleted: unlinked, isClosed });
  return [
    ...removed.map((labelId) => ({ type: 'LABEL' as const, posterId: actorId, issueId, labelId, content: '' })),
    ...added.map((labelId) => ({ type: 'LABEL' as const, posterId: actorId, issueId, labelId, content: '1' })),
  ];
}
