import type { PackageFileView, PackageVersionView } from '../../services/package/api.ts';
import type { Package, PackageFile } from '../structs/package.ts';
import { toApiRepository } from './repo.ts';
import { apiTime } from './time.ts';
import { toApiGhostUser, toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Parameters<typeof toApiUser>[1];

/** Gitea convert.ToPackage: a version with its owner, creator and (readable) linked repository. */
export function toApiPackage(view: PackageVersionView, viewer: Viewer, opts: ConvertOptions): Package {
  const { pkg, version, owner } = view;
  const type = pkg.type.toLowerCase();
  return {
    id: version.id,
    owner: toApiUser(owner, viewer, opts),
    repository: view.repository ? toApiRepository(view.repository.repo, view.repository.repo.owner, view.repository.perm, opts) : null,
    creator: view.creator ? toApiUser(view.creator, viewer, opts) : toApiGhostUser(opts),
    type,
    name: pkg.name,
    version: version.version,
    html_url: `${opts.rootUrl}${encodeURIComponent(owner.name)}/-/packages/${type}/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version.version)}`,
    created_at: apiTime(version.createdAt),
  };
}

/** Gitea convert.ToPackageFile. */
export function toApiPackageFile(file: PackageFileView): PackageFile {
  return {
    id: file.id,
    size: Number(file.blob.size),
    name: file.name,
    md5: file.blob.hashMd5,
    sha1: file.blob.hashSha1,
    sha256: file.blob.hashSha256,
    sha512: file.blob.hashSha512,
  };
}
