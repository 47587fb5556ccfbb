import * as migrationService from '../../services/migration/migrate.ts';
import * as mirrorService from '../../services/migration/mirrorSync.ts';
import { pushMirrorsForAdmins, type PushMirrorView } from '../../services/migration/pushMirror.ts';
import { goDuration } from '../../services/goDuration.ts';
import { builder } from '../builder.ts';
import { withInputFieldNames } from '../errors.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { opt } from '../ids.ts';
import { checkedBy, inherits } from '../policy.ts';
import { RepositoryRef } from './repository.ts';

const RepositoryStatusEnum = builder.enumType('RepositoryStatus', {
  description: "A repository's state: READY, or BEING_MIGRATED while a migration runs (Gitea's repository status).",
  values: ['READY', 'BEING_MIGRATED', 'PENDING_TRANSFER', 'BROKEN'] as const,
});

const PushMirrorRef = builder.objectRef<PushMirrorView>('PushMirror').implement({
  description: 'A remote this repository is pushed to (Gitea push mirror); credentials are never shown.',
  ...inherits('push mirrors are listed only to repository admins (pushMirrorsForAdmins)'),
  fields: (t) => ({
    remoteName: t.exposeString('remoteName'),
    remoteAddress: t.exposeString('remoteAddress', { description: 'The remote URL, without credentials.' }),
    interval: t.string({ description: 'Go duration; 0s = only on commit.', resolve: (m) => goDuration(m.interval) }),
    syncOnCommit: t.exposeBoolean('syncOnCommit'),
    lastUpdatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.lastUpdateAt }),
    lastError: t.exposeString('lastError'),
    createdAt: t.field({ type: 'DateTime', resolve: (m) => m.createdAt }),
  }),
});

// Repository.isMirror is defined with the Repository type (repository.ts).
builder.prismaObjectFields(RepositoryRef, (t) => ({
  status: t.field({
    type: RepositoryStatusEnum,
    description: 'READY, or BEING_MIGRATED until a migration finishes.',
    ...inherits('REST shows the repository with its state'),
    resolve: (r) => r.status,
  }),
  mirrorUrl: t.field({
    type: 'URI',
    nullable: true,
    description: "A pull mirror's source URL (without credentials), as REST original_url.",
    ...inherits('REST shows original_url with the repository'),
    select: { mirror: { select: { remoteAddress: true } } },
    resolve: (r) => r.mirror?.remoteAddress ?? null,
  }),
  mirrorInterval: t.string({
    nullable: true,
    description: "A pull mirror's sync interval as a Go duration (`8h0m0s`; `0s` = manual syncs only).",
    ...inherits('REST shows mirror_interval with the repository'),
    select: { mirror: { select: { interval: true } } },
    resolve: (r) => (r.mirror ? goDuration(r.mirror.interval) : null),
  }),
  mirrorUpdatedAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'When a pull mirror last tried to sync (REST mirror_updated).',
    ...inherits('REST shows mirror_updated with the repository'),
    select: { mirror: { select: { updatedAt: true } } },
    resolve: (r) => r.mirror?.updatedAt ?? null,
  }),
  mirrorLastSyncAt: t.field({
    type: 'DateTime',
    nullable: true,
    description: 'When a pull mirror last synced successfully (REST mirror_last_sync_at).',
    ...inherits('REST shows mirror_last_sync_at with the repository'),
    select: { mirror: { select: { lastSyncAt: true } } },
    resolve: (r) => r.mirror?.lastSyncAt ?? null,
  }),
  pushMirrors: t.field({
    type: [PushMirrorRef],
    description: "The repository's push mirrors; empty unless the viewer administers the repository (as GET …/push_mirrors).",
    ...checkedBy('pushMirrorsForAdmins'),
    resolve: (r, _a, ctx) => pushMirrorsForAdmins(ctx.cx, r),
  }),
}));

builder.relayMutationField(
  'migrateRepository',
  {
    inputFields: (t) => ({
      cloneAddress: t.string({ required: true, description: 'The source: an http(s) or git URL (local paths for admins).' }),
      name: t.string({ required: true }),
      ownerLogin: t.string({ description: 'A user or organization; the viewer when omitted.' }),
      service: t.string({ description: 'git (default), gitea, gogs or github.' }),
      authUsername: t.string(),
      authPassword: t.string(),
      authToken: t.string(),
      mirror: t.boolean({ description: 'Keep the repository a pull mirror of the source.' }),
      mirrorInterval: t.string({ description: 'Go duration; empty → 8h, 0 → manual syncs only, at least 10m.' }),
      isPrivate: t.boolean(),
      description: t.string(),
      wiki: t.boolean(),
      milestones: t.boolean(),
      labels: t.boolean(),
      issues: t.boolean(),
      pullRequests: t.boolean(),
      releases: t.boolean(),
    }),
  },
  {
    description: 'Migrate a repository from another forge or git server (as POST /api/v1/repos/migrate); LFS objects are not migrated.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const migrated = await withInputFieldNames({ clone_addr: 'cloneAddress', repo_name: 'name' }, () =>
        migrationService.migrateRepo(ctx.cx, {
          cloneAddr: input.cloneAddress,
          repoName: input.name,
          repoOwner: opt(input.ownerLogin),
          service: opt(input.service),
          authUsername: opt(input.authUsername),
          authPassword: opt(input.authPassword),
          authToken: opt(input.authToken),
          mirror: opt(input.mirror),
          mirrorInterval: opt(input.mirrorInterval),
          private: opt(input.isPrivate),
          description: opt(input.description),
          wiki: opt(input.wiki),
          milestones: opt(input.milestones),
          labels: opt(input.labels),
          issues: opt(input.issues),
          pullRequests: opt(input.pullRequests),
          releases: opt(input.releases),
        }),
      );
      return { repository: migrated.repo };
    },
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);

builder.relayMutationField(
  'syncMirror',
  { inputFields: (t) => ({ owner: t.string({ required: true }), name: t.string({ required: true }) }) },
  {
    description: 'Queue a sync of a pull mirror with its source (as POST /api/v1/repos/{owner}/{repo}/mirror-sync).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({
      repository: await mirrorService.requestMirrorSync(ctx.cx, { owner: input.owner, repo: input.name }),
    }),
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);
