import type { Models } from '../../db/client.ts';
import type { TagInfo } from '../../git/listTags.ts';
import type { AnnotatedTagView } from '../../services/release/tag.ts';
import type { AnnotatedTag, Tag } from '../structs/tag.ts';
import { pathEscapeSegments } from './git.ts';
import { apiTime } from './time.ts';
import { toApiVerification } from './verification.ts';

type RepoNames = Pick<Models.Repository, 'ownerName' | 'name'>;

/** Gitea convert.ToTag: `id` is the ref's value, `commit` the commit it points at, archives by tag name. */
export function toApiTag(repo: RepoNames, t: TagInfo, rootUrl: string): Tag {
  const repoApi = `${rootUrl}api/v1/repos/${repo.ownerName}/${repo.name}`;
  const repoHtml = `${rootUrl}${repo.ownerName}/${repo.name}`;
  const name = pathEscapeSegments(t.name);
  return {
    name: t.name,
    message: t.message,
    id: t.id,
    commit: { url: `${repoApi}/git/commits/${t.commit}`, sha: t.commit, created: apiTime(new Date(t.date)) },
    zipball_url: `${repoHtml}/archive/${name}.zip`,
    tarball_url: `${repoHtml}/archive/${name}.tar.gz`,
  };
}

/** A list of tags. */
export function toApiTagList(repo: RepoNames, tags: readonly TagInfo[], rootUrl: string): Tag[] {
  return tags.map((t) => toApiTag(repo, t, rootUrl));
}

/** Gitea convert.ToAnnotatedTag, `verification` being the tag's own signature's (see services/release/tag.ts). */
export function toApiAnnotatedTag(v: AnnotatedTagView, rootUrl: string): AnnotatedTag {
  const repoApi = `${rootUrl}api/v1/repos/${v.repo.ownerName}/${v.repo.name}`;
  const t = v.tag;
  const objectUrl = t.objectType === 'commit' ? `${repoApi}/git/commits/${t.objectSha}` : `${repoApi}/git/${t.objectType}s/${t.objectSha}`;
  return {
    tag: t.name,
    sha: t.sha,
    url: `${repoApi}/git/tags/${t.sha}`,
    message: t.message,
    tagger: t.tagger ? { name: t.tagger.name, email: t.tagger.email, date: t.tagger.when } : null,
    object: { type: t.objectType, url: objectUrl, sha: t.objectSha },
    verification: toApiVerification(v.verification),
  };
}
