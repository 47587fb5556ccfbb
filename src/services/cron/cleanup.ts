import type { Dirent } from 'node:fs';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { formatDuration } from '../../jobs/duration.ts';
import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import type { ServiceContext } from '../context.ts';
import { sweepOrphanAttachmentFiles } from '../attachment/orphans.ts';
import { archiveCacheDir } from '../repo/download.ts';
import { cleanupExpiredPackageData } from '../package/cleanup.ts';
import * as userService from '../user/user.ts';

const DAY = 86_400_000;

/** The moment before which things are old for this run (OLDER_THAN, else the given default). */
function cutoff(run: CronRun, fallbackMs: number): { before: Date; text: string } {
  const ms = run.settings.olderThanMs ?? fallbackMs;
  return { before: new Date(run.startedAt.getTime() - ms), text: formatDuration(ms) };
}

/** Where repository archives live (Gitea `[repo-archive]` local storage): the archive download cache. */
const archiveDir = archiveCacheDir;

/** Deletes files under `dir` modified before `before` (all when null) and the directories left empty; returns the count. */
async function pruneFiles(dir: string, before: Date | null): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      removed += await pruneFiles(p, before);
      await rmdir(p).catch(() => undefined);
    } else if (!before || (await stat(p)).mtime < before) {
      await rm(p, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Gitea archive_cleanup: repository archives older than OLDER_THAN (24h) are deleted. Attachment files that no row
 * names any more go too: the sweep that follows a deletion runs on an event, which a process stopping between the
 * deletion and the event loses; this daily run (and the one at start) is the durable one.
 */
export async function archiveCleanup(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const { before, text } = cutoff(run, DAY);
  const removed = await pruneFiles(archiveDir(cx), before);
  const orphans = run.signal.aborted ? 0 : await sweepOrphanAttachmentFiles(cx.db, cx.config.attachments, run.startedAt);
  const swept = orphans ? `; removed ${orphans} attachment file(s) of deleted attachments` : '';
  return { message: `deleted ${removed} repository archive file(s) older than ${text} from ${archiveDir(cx)}${swept}` };
}

/** Gitea delete_repo_archives: every repository archive is deleted. */
export async function deleteRepoArchives(cx: ServiceContext): Promise<CronOutcome> {
  const removed = await pruneFiles(archiveDir(cx), null);
  return { message: `deleted ${removed} repository archive file(s) from ${archiveDir(cx)}` };
}

/**
 * Gitea cleanup_packages: packages left without versions, package blobs no file references any more and created
 * before OLDER_THAN (24h; rows and files), and upload temp files as old. Per-owner cleanup rules are not modelled.
 */
export async function cleanupPackages(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const { before, text } = cutoff(run, DAY);
  const done = await cleanupExpiredPackageData(cx, before);
  return {
    message: `deleted ${done.blobs} unreferenced package blob(s) older than ${text}, ${done.packages} package(s) without versions and ${done.tempFiles} stale upload file(s); package cleanup rules are not supported yet`,
  };
}

/** Gitea deleted_branches_cleanup: branches deleted more than OLDER_THAN (24h) ago lose their kept row. */
export async function deletedBranchesCleanup(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const { before, text } = cutoff(run, DAY);
  const { count } = await cx.db.branch.deleteMany({ where: { isDeleted: true, deletedAt: { lt: before } } });
  return { message: `removed ${count} deleted branch record(s) older than ${text}` };
}

/**
 * Gitea cleanup_hook_task_table: delivered webhook deliveries are removed — older than OLDER_THAN (168h) with
 * CLEANUP_TYPE=OlderThan, or beyond the newest NUMBER_TO_KEEP (10) of each webhook with PerWebhook.
 */
export async function cleanupHookTaskTable(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  if ((run.settings.cleanupType ?? 'OlderThan') === 'OlderThan') {
    const { before, text } = cutoff(run, 7 * DAY);
    const { count } = await cx.db.hookTask.deleteMany({ where: { isDelivered: true, deliveredAt: { lt: before } } });
    return { message: `removed ${count} delivered webhook deliveries older than ${text}` };
  }
  const keep = run.settings.numberToKeep ?? 10;
  const hooks = await cx.db.webhook.findMany({ select: { id: true } });
  let removed = 0;
  for (const { id } of hooks) {
    const newest = await cx.db.hookTask.findMany({
      where: { hookId: id, isDelivered: true },
      orderBy: [{ deliveredAt: 'desc' }, { id: 'desc' }],
      take: keep,
      select: { id: true },
    });
    if (newest.length < keep) continue;
    const { count } = await cx.db.hookTask.deleteMany({ where: { hookId: id, isDelivered: true, id: { notIn: newest.map((t) => t.id) } } });
    removed += count;
  }
  return { message: `removed ${removed} delivered webhook deliveries beyond the newest ${keep} of each of ${hooks.length} webhook(s)` };
}

/** Gitea delete_old_actions: activity feed rows older than OLDER_THAN (8760h) are deleted. */
export async function deleteOldActions(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const { before, text } = cutoff(run, 365 * DAY);
  const { count } = await cx.db.action.deleteMany({ where: { createdAt: { lt: before } } });
  return { message: `deleted ${count} activity row(s) older than ${text}` };
}

/** Gitea delete_old_system_notices: system notices older than OLDER_THAN (8760h) are deleted. */
export async function deleteOldSystemNotices(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const { before, text } = cutoff(run, 365 * DAY);
  const { count } = await cx.db.systemNotice.deleteMany({ where: { createdAt: { lt: before } } });
  return { message: `deleted ${count} system notice(s) older than ${text}` };
}

/**
 * Gitea delete_inactive_accounts (DeleteInactiveUsers): accounts never activated and created more than
 * OLDER_THAN (3h, Gitea's ACTIVE_CODE_LIVE_MINUTES) ago are deleted; ones that own repositories or belong to
 * organizations are kept, as Gitea's non-purging delete refuses them.
 */
export async function deleteInactiveAccounts(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const { before, text } = cutoff(run, 3 * 3_600_000);
  const users = await cx.db.user.findMany({
    where: { type: 'INDIVIDUAL', isActive: false, createdAt: { lt: before } },
    select: { name: true },
    orderBy: { id: 'asc' },
  });
  const kept: string[] = [];
  let deleted = 0;
  for (const u of users) {
    if (run.signal.aborted) break;
    try {
      await userService.deleteUser(cx, u.name);
      deleted++;
    } catch {
      kept.push(u.name);
    }
  }
  return {
    message: `deleted ${deleted} inactive account(s) created more than ${text} ago${kept.length ? `; kept ${kept.join(', ')} (they own repositories or belong to organizations)` : ''}`,
  };
}
