import { z } from 'zod';
import { PACKAGE_TYPES } from '../../services/package/api.ts';
import { qString } from '../params.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

/** Gitea `Package` (modules/structs/package.go): one version of a package; `id` is the version's id. */
export const Package = z.object({
  id: z.number().int(),
  owner: User,
  repository: Repository.nullable(),
  creator: User,
  type: z.string(),
  name: z.string(),
  version: z.string(),
  html_url: z.string(),
  created_at: z.string(),
});
/** A Gitea Package as sent on the wire. */
export type Package = z.infer<typeof Package>;

/** Gitea `PackageFile`: a file of a package version with its blob's size and hashes. */
export const PackageFile = z.object({
  id: z.number().int(),
  size: z.number().int(),
  name: z.string(),
  md5: z.string(),
  sha1: z.string(),
  sha256: z.string(),
  sha512: z.string(),
});
/** A Gitea PackageFile as sent on the wire. */
export type PackageFile = z.infer<typeof PackageFile>;

/** Query of GET /packages/{owner}: the type filter and a name substring. */
export const ListPackagesQuery = z.object({
  type: qString('package type filter', { enum: PACKAGE_TYPES }),
  q: qString('name filter'),
});
