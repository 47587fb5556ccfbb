import type { Models } from '../../db/client.ts';
import type { Attachment } from '../structs/attachment.ts';
import { apiTime } from './time.ts';
import type { ConvertOptions } from './user.ts';

/** Gitea convert.ToAPIAttachment: downloads at `{ROOT}attachments/{uuid}`. */
export function toApiAttachment(a: Models.Attachment, opts: ConvertOptions): Attachment {
  return {
    id: a.id,
    name: a.name,
    size: Number(a.size),
    download_count: a.downloadCount,
    created_at: apiTime(a.createdAt),
    uuid: a.uuid,
    browser_download_url: `${opts.rootUrl}attachments/${a.uuid}`,
  };
}
