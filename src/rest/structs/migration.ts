import { z } from 'zod';
import { zBool } from '../validation.ts';

const str = z.string().nullish();
const bool = zBool.nullish();

/** Gitea `MigrateRepoOptions` (clone_addr and repo_name are Required; the service checks them after the token gate). */
export const MigrateRepoOptions = z.object({
  clone_addr: str,
  repo_name: str,
  repo_owner: str,
  uid: z.number().int().nullish(),
  service: str,
  auth_username: str,
  auth_password: str,
  auth_token: str,
  mirror: bool,
  mirror_interval: str,
  private: bool,
  description: str,
  wiki: bool,
  milestones: bool,
  labels: bool,
  issues: bool,
  pull_requests: bool,
  releases: bool,
  lfs: bool,
  lfs_endpoint: str,
  aws_access_key_id: str,
  aws_secret_access_key: str,
});
export type MigrateRepoOptions = z.infer<typeof MigrateRepoOptions>;

/** Gitea `PushMirror`. */
export const PushMirror = z.object({
  repo_name: z.string(),
  remote_name: z.string(),
  remote_address: z.string(),
  created: z.string(),
  last_update: z.string(),
  last_error: z.string(),
  interval: z.string(),
  sync_on_commit: z.boolean(),
});
export type PushMirror = z.infer<typeof PushMirror>;

/** Gitea `CreatePushMirrorOption`. */
export const CreatePushMirrorOption = z.object({
  remote_address: z.string().nullish(),
  remote_username: str,
  remote_password: str,
  interval: str,
  sync_on_commit: bool,
});
