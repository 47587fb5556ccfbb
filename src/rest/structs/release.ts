import { z } from 'zod';
import { qBool, qString } from '../params.ts';
import { zBool } from '../validation.ts';
import { Attachment } from './attachment.ts';
import { User } from './user.ts';

/** Gitea `Release` (modules/structs/release.go), fields in Gitea's order; `assets` always an array. */
export const Release = z.object({
  id: z.number().int(),
  tag_name: z.string(),
  target_commitish: z.string(),
  name: z.string(),
  body: z.string(),
  url: z.string(),
  html_url: z.string(),
  tarball_url: z.string(),
  zipball_url: z.string(),
  upload_url: z.string(),
  draft: z.boolean(),
  prerelease: z.boolean(),
  created_at: z.string(),
  published_at: z.string(),
  author: User,
  assets: z.array(Attachment),
});
export type Release = z.infer<typeof Release>;

/** Gitea `CreateReleaseOption`: `tag_name` is required. */
export const CreateReleaseOption = z.object({
  tag_name: z.string(),
  target_commitish: z.string().optional(),
  name: z.string().optional(),
  body: z.string().optional(),
  draft: zBool.optional(),
  prerelease: zBool.optional(),
  tag_message: z.string().optional(),
});

/** Gitea `EditReleaseOption`: empty strings change nothing. */
export const EditReleaseOption = z.object({
  tag_name: z.string().nullable().optional(),
  target_commitish: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  body: z.string().nullable().optional(),
  draft: zBool.nullable().optional(),
  prerelease: zBool.nullable().optional(),
});

/** Gitea `EditAttachmentOptions`. */
export const EditAttachmentOptions = z.object({ name: z.string().nullable().optional() });

/** Query of GET /repos/{o}/{r}/releases (page/limit are added by the list route). */
export const ListReleasesQuery = z.object({
  draft: qBool('filter (exclude / include) drafts, if you dont have repo write access none will show'),
  'pre-release': qBool('filter (exclude / include) pre-releases'),
});

/** Query of an upload: `name` overrides the file's name (required for a raw body). */
export const UploadQuery = z.object({ name: qString('name of the attachment') });
