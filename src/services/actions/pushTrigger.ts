// `on: push`: after a push's rows, each pushed branch or tag starts the workflows whose filters match; a push to
// the default branch also re-registers the `on: schedule` crons.
import { repoPath } from '../../git/repoPath.ts';
import { changedPaths } from '../../git/workflowFiles.ts';
import type { PushFollowUp } from '../repo/pushJob.ts';
import { startRunsForEvent } from './createRuns.ts';
import { pushMatches } from './filters.ts';
import { syncSchedules } from './schedules.ts';

const ZERO = /^0+$/;

export const actionsPushFollowUp: PushFollowUp = async (cx, push) => {
  const { repo, pusher } = push;
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  for (const update of push.updates) {
    if (ZERO.test(update.newSha) || !(update.ref.startsWith('refs/heads/') || update.ref.startsWith('refs/tags/'))) continue;
    if (update.ref === `refs/heads/${repo.defaultBranch}`) await syncSchedules(cx, repo, update.newSha, push.pusherId);
    const before = ZERO.test(update.oldSha) ? null : update.oldSha;
    await startRunsForEvent(cx, {
      repo,
      event: 'push',
      ref: update.ref,
      commitSha: update.newSha,
      triggerUserId: push.pusherId,
      payload: {
        ref: update.ref,
        before: update.oldSha,
        after: update.newSha,
        repository: { id: repo.id, name: repo.name, full_name: `${repo.ownerName}/${repo.name}`, default_branch: repo.defaultBranch },
        pusher: pusher ? { id: pusher.id, login: pusher.name, username: pusher.name } : null,
        sender: pusher ? { id: pusher.id, login: pusher.name, username: pusher.name } : null,
      },
      changedFiles: () => changedPaths(gitDir, before, update.newSha),
      matches: (filter, changed) => pushMatches(filter, update.ref, changed),
    });
  }
};
