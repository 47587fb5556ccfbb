import * as migrationService from '../../../services/migration/migrate.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository } from '../../convert/repo.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { MigrateRepoOptions } from '../../structs/migration.ts';

const opt = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

/** POST /repos/migrate (Gitea routers/api/v1/repo/migrate.go). */
export const migrateRoutes: readonly RouteDef[] = [
  defineRoute({
    method: 'POST',
    path: '/repos/migrate',
    operationId: 'repoMigrate',
    summary: 'Migrate a remote git repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: MigrateRepoOptions,
    success: { status: 201, schema: 'Repository' },
    errors: [403, 409, 422],
    handler: async ({ cx, body }) => {
      const { repo, perm } = await migrationService.migrateRepo(cx, {
        cloneAddr: body.clone_addr ?? '',
        repoName: body.repo_name ?? '',
        repoOwner: opt(body.repo_owner),
        uid: opt(body.uid),
        service: opt(body.service),
        authUsername: opt(body.auth_username),
        authPassword: opt(body.auth_password),
        authToken: opt(body.auth_token),
        mirror: opt(body.mirror),
        mirrorInterval: opt(body.mirror_interval),
        private: opt(body.private),
        description: opt(body.description),
        wiki: opt(body.wiki),
        milestones: opt(body.milestones),
        labels: opt(body.labels),
        issues: opt(body.issues),
        pullRequests: opt(body.pull_requests),
        releases: opt(body.releases),
        lfs: opt(body.lfs),
        lfsEndpoint: opt(body.lfs_endpoint),
      });
      return toApiRepository(repo, repo.owner, perm, convertOptions(cx));
    },
  }),
];
