import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import type { ServiceContext } from '../context.ts';

/**
 * Tasks of subsystems Forgegraph does not serve yet (the Actions runner service, LFS, SSH,
 * external authentication, update checks, a search index). Each looks at the rows it would
 * act on and says, in its run record (status SKIPPED), what it found and why it did nothing.
 */

function skipped(message: string): CronOutcome {
  return { message, skipped: true };
}

/** sync_external_users: there are no external authentication sources. */
export async function syncExternalUsers(): Promise<CronOutcome> {
  return skipped('no external authentication sources (LDAP, OAuth2) exist: nothing to synchronize');
}

/** update_migration_poster_id: migrated content is linked to accounts through external logins, which do not exist. */
export async function updateMigrationPosterId(cx: ServiceContext): Promise<CronOutcome> {
  const migrated = await cx.db.issue.count({ where: { originalAuthorId: { not: 0 } } });
  return skipped(`no external login accounts exist to link migrated content to (${migrated} issue(s) keep their original author)`);
}

/** resync_all_sshkeys / resync_all_sshprincipals: there is no SSH server and no authorized_keys file. */
export async function resyncSshFile(cx: ServiceContext, _run: CronRun, what: 'keys' | 'principals'): Promise<CronOutcome> {
  const keys = await cx.db.publicKey.count();
  return skipped(`Forgegraph serves git over HTTP only: there is no authorized_${what} file to rewrite (${keys} public key(s) stored)`);
}

/** delete_generated_repository_avatars: repository avatars are drawn on request, none is stored. */
export async function deleteGeneratedRepositoryAvatars(): Promise<CronOutcome> {
  return skipped('repository avatars are generated on request and never stored: nothing to delete');
}

/** update_checker: Forgegraph has no release feed to ask. */
export async function updateChecker(cx: ServiceContext): Promise<CronOutcome> {
  return skipped(`no release feed is configured for update checks (running ${cx.config.version})`);
}

/** gc_lfs: LFS objects are not stored. */
export async function gcLfs(cx: ServiceContext): Promise<CronOutcome> {
  const withLfs = await cx.db.repository.count({ where: { lfsSize: { gt: 0 } } });
  return skipped(`Git LFS is not served yet: no LFS objects to collect (${withLfs} repositories report LFS bytes)`);
}

/** rebuild_issue_indexer: issue search queries the database; there is no index. */
export async function rebuildIssueIndexer(): Promise<CronOutcome> {
  return skipped('issue search reads the database directly: there is no issue index to rebuild');
}
