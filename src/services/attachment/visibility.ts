// The read policy of attachments: an attachment is read as what it is attached to (release, issue or comment).
import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { issueReadWhere } from '../issue/visibility.ts';
import { releaseReadWhere } from '../release/visibility.ts';

/**
 * The one read policy of attachments (Gitea ServeAttachment and its LinkedRepository), used by every route that
 * serves one (`/attachments/{uuid}`, release downloads, the API's asset routes, the graph): a release's file as
 * its release is read (a draft only by those who may write releases), an issue's or a comment's as its issue is
 * (the issues or pull requests unit readable); a file linked to neither, by its uploader only.
 */
export function attachmentReadWhere(cx: ServiceContext): Models.Prisma.AttachmentWhereInput {
  const viewer = cx.viewer;
  return {
    OR: [
      { releaseId: { not: null }, release: releaseReadWhere(cx) },
      { releaseId: null, issueId: { not: null }, issue: issueReadWhere(cx) },
      ...(viewer ? [{ releaseId: null, issueId: null, uploaderId: viewer.id }] : []),
    ],
  };
}

/** The attachments of releases the viewer reads (the graph's ReleaseAsset), by the attachment read policy. */
export function releaseAssetReadWhere(cx: ServiceContext): Models.Prisma.AttachmentWhereInput {
  return { releaseId: { not: null }, AND: [attachmentReadWhere(cx)] };
}
