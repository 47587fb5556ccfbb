import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { requireWriter } from '../access/guards.ts';
import { orgAccess } from '../access/orgAccess.ts';
import type { ServiceContext } from '../context.ts';
import { createRepo, ownerPermission, ownerRefFor } from '../repo/create.ts';
import { loadApiRepos, type RepoWithPermission } from '../repo/repoRows.ts';
import { validateRepoNameSyntax } from '../repo/validate.ts';
import { checkCloneAddress, parseCloneAddress } from './address.ts';
import { NO_CREDENTIALS, sealCredentials, type RemoteCredentials } from './credentials.ts';
import { nextSync, parseMirrorInterval } from './interval.ts';
import { MIGRATE_JOB, type MigratePayload, type MigrationService } from './migrateJob.ts';

/** Gitea's MigrateRepoOptions. */
export interface MigrateInput {
  cloneAddr: string;
  repoName: string;
  /** Owner name; wins over `uid`. */
  repoOwner?: string;
  /** Deprecated owner id. */
  uid?: number;
  service?: string;
  authUsername?: string;
  authPassword?: string;
  authToken?: string;
  mirror?: boolean;
  mirrorInterval?: string;
  private?: boolean;
  description?: string;
  wiki?: boolean;
  milestones?: boolean;
  labels?: boolean;
  issues?: boolean;
  pullRequests?: boolean;
  releases?: boolean;
  /** LFS objects are not migrated: Forgegraph has no LFS server, and Gitea ignores `lfs` without one. */
  lfs?: boolean;
  lfsEndpoint?: string;
}

const SERVICES: Record<string, { service: MigrationService; type: Models.GitServiceType }> = {
  '': { service: 'git', type: 'PLAIN' },
  git: { service: 'git', type: 'PLAIN' },
  gitea: { service: 'gitea', type: 'GITEA' },
  gogs: { service: 'gogs', type: 'GOGS' },
  github: { service: 'github', type: 'GITHUB' },
};
const UNSUPPORTED = new Set(['gitlab', 'onedev', 'gitbucket', 'codebase', 'codecommit']);

/** The owner (by name, then by id, else the viewer) and Gitea's migrate permission rule. */
async function migrationOwner(cx: ServiceContext, viewer: Models.User, input: MigrateInput): Promise<Models.User> {
  let owner: Models.User | null = viewer;
  if (input.repoOwner) {
    owner = await cx.db.user.findFirst({ where: { lowerName: input.repoOwner.toLowerCase() } });
    if (!owner) throw new ValidationError(`user does not exist [uid: 0, name: ${input.repoOwner}]`, { reason: 'OWNER_NOT_FOUND' });
  } else if (input.uid) {
    owner = await cx.db.user.findUnique({ where: { id: input.uid } });
    if (!owner) throw new ValidationError(`user does not exist [uid: ${input.uid}, name: ]`, { reason: 'OWNER_NOT_FOUND' });
  }
  if (viewer.isAdmin || owner.id === viewer.id) return owner;
  if (owner.type !== 'ORGANIZATION') throw new PermissionDeniedError('Given user is not an organization.');
  if (!(await orgAccess(cx, owner)).isOwner) throw new PermissionDeniedError('Given user is not owner of organization.');
  return owner;
}

function credentialsOf(input: MigrateInput): RemoteCredentials {
  const given = { username: input.authUsername ?? '', password: input.authPassword ?? '', token: input.authToken ?? '' };
  if (given.username || given.password || given.token) return given;
  const inUrl = parseCloneAddress(input.cloneAddr).credentials;
  return inUrl ? { ...NO_CREDENTIALS, ...inUrl } : NO_CREDENTIALS;
}

/**
 * POST /repos/migrate: Gitea's checks in Gitea's order (binding, owner, permission, clone address and host
 * policy, name conflict before any contact with the source), then a placeholder repository in the
 * being-migrated state and the migration job, which this request runs to its end (Gitea migrates
 * synchronously). A failed migration removes what it made and is reported as 422 with the reason.
 * Credentials are sealed in the job (and, for a mirror, in its row), never stored in a URL.
 * @throws ValidationError, PermissionDeniedError, AlreadyExistsError, UnauthenticatedError
 */
export async function migrateRepo(cx: ServiceContext, input: MigrateInput): Promise<RepoWithPermission> {
  const viewer = requireWriter(cx, 'write:repository');
  if (!input.cloneAddr) throw new ValidationError('Required', { field: 'clone_addr', rule: 'Required' });
  validateRepoNameSyntax(input.repoName, 'repo_name');
  if ((input.description ?? '').length > 2048) throw new ValidationError('MaxSize', { field: 'description', rule: 'MaxSize' });
  const owner = await migrationOwner(cx, viewer, input);
  const address = await checkCloneAddress(cx.config.migrations, viewer, input.cloneAddr);
  const serviceName = (input.service ?? '').toLowerCase();
  if (UNSUPPORTED.has(serviceName))
    throw new ValidationError(`migrating from ${serviceName} is not supported`, { reason: 'NOT_SUPPORTED' });
  const svc = SERVICES[serviceName] ?? { service: 'git', type: 'PLAIN' };
  const mirror = input.mirror ?? false;
  const interval = mirror ? parseMirrorInterval(input.mirrorInterval) : 0;
  const credentials = credentialsOf(input);
  const sealed = sealCredentials(cx.config.secretKey, credentials);
  const cloneUrl = address.kind === 'local' ? address.path : address.url.toString();
  // Gitea: a mirror carries the git data only; comments come with issues or pull requests.
  const items = {
    wiki: input.wiki ?? false,
    milestones: !mirror && (input.milestones ?? false),
    labels: !mirror && (input.labels ?? false),
    issues: !mirror && (input.issues ?? false),
    pullRequests: !mirror && (input.pullRequests ?? false),
    releases: !mirror && (input.releases ?? false),
  };
  const payload: MigratePayload = {
    ownerId: owner.id,
    name: input.repoName,
    doerId: viewer.id,
    cloneUrl,
    credentials: sealed,
    service: svc.service,
    mirror,
    items,
  };

  const held = await cx.jobs.hold(MIGRATE_JOB, payload);
  let repoId: number;
  try {
    const created = await createRepo(
      cx,
      ownerRefFor(viewer, owner),
      { name: input.repoName, description: input.description ?? '', private: input.private ?? false },
      {
        data: { status: 'BEING_MIGRATED', isMirror: mirror, originalUrl: cloneUrl, originalServiceType: svc.type },
        inTx: async (tx, repo) => {
          if (!mirror) return;
          await tx.mirror.create({
            data: { repoId: repo.id, interval, nextUpdateAt: nextSync(interval), remoteAddress: cloneUrl, credentialsEncrypted: sealed },
          });
        },
      },
    );
    repoId = created.repo.id;
  } catch (err) {
    await held.run({ ...payload, repoId: -1 });
    throw err;
  }
  await held.run({ ...payload, repoId });
  const job = await cx.db.job.findUnique({ where: { id: held.id }, select: { payload: true } });
  const outcome = job ? MIGRATE_JOB.payload.safeParse(JSON.parse(job.payload)) : null;
  if (outcome?.success && outcome.data.failure) throw new ValidationError(outcome.data.failure, { reason: 'MIGRATION_FAILED' });
  const [row] = await loadApiRepos(cx, { where: { id: repoId } });
  if (!row) throw new NotFoundError('repository does not exist', { repoId });
  if (row.status !== 'READY') throw new ValidationError('Migration failed: the migration did not finish.', { reason: 'MIGRATION_FAILED' });
  return { repo: row, perm: ownerPermission(row.units.map((u) => u.type)) };
}
