// Pushed tags keep the release table in step (Gitea release_service.PushUpdateAddTag / PushUpdateDeleteTags).
import { countCommits } from '../../git/countCommits.ts';
import { listTags } from '../../git/listTags.ts';
import { repoPath } from '../../git/repoPath.ts';
import { withTx } from '../context.ts';
import type { PushFollowUp } from '../repo/pushJob.ts';

const TAGS = 'refs/tags/';
const ZERO = /^0+$/;

/**
 * After a push (over git or by the API): a new or moved tag gets a bare-tag row (`is_tag`, publisher the pusher,
 * time the tagger's or the commit's) or, when a release has it, the release records the tag's commit; a deleted
 * tag's bare row goes and its releases turn into drafts without a commit. Idempotent: a replayed push changes nothing.
 */
export const releaseTagSyncFollowUp: PushFollowUp = async (cx, push) => {
  const tagUpdates = push.updates.filter((u) => u.ref.startsWith(TAGS));
  if (!tagUpdates.length) return;
  const { repo } = push;
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const deleted = tagUpdates.filter((u) => ZERO.test(u.newSha)).map((u) => u.ref.slice(TAGS.length).toLowerCase());
  const present = tagUpdates.filter((u) => !ZERO.test(u.newSha)).map((u) => u.ref.slice(TAGS.length));
  const tags = present.length ? (await listTags(gitDir, { names: present })).items : [];
  const counts = new Map(await Promise.all(tags.map(async (tag) => [tag.name, await countCommits(gitDir, tag.commit)] as const)));
  await withTx(cx, async (tx) => {
    if (deleted.length) {
      await tx.release.deleteMany({ where: { repoId: repo.id, isTag: true, lowerTagName: { in: deleted } } });
      await tx.release.updateMany({
        where: { repoId: repo.id, isTag: false, lowerTagName: { in: deleted } },
        data: { isDraft: true, sha1: '', numCommits: 0 },
      });
    }
    for (const tag of tags) {
      const lowerTagName = tag.name.toLowerCase();
      const numCommits = counts.get(tag.name) ?? 0;
      await tx.release.upsert({
        where: { repoId_lowerTagName: { repoId: repo.id, lowerTagName } },
        create: {
          repoId: repo.id,
          publisherId: push.pusherId,
          tagName: tag.name,
          lowerTagName,
          target: tag.commit,
          sha1: tag.commit,
          numCommits,
          note: tag.annotated ? tag.message : '',
          isTag: true,
          createdAt: new Date(tag.date),
        },
        update: { sha1: tag.commit, numCommits },
      });
    }
  });
};
