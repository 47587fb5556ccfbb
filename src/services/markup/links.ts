// Where rendered links and images point (Gitea modules/markup Links, render_link.go, markdown/transform_link.go and
// transform_image.go): a base taken from the request's context path, with the branch and directory of a file
// being previewed, or the repository's wiki.
import path from 'node:path';

/** The bases of a render: `base` is absolute (or empty); `branchPath`/`treePath` name a previewed file's place. */
export interface Links {
  base: string;
  /** `branch/main`, `commit/<sha>`, `tag/v1`: set when the context is a `…/src/…` path. */
  branchPath: string;
  treePath: string;
}

/** A link with a scheme (`https:`, `mailto:`, `ssh+git:`): never rewritten (Gitea's fullURLPattern). */
export function isFullUrl(link: string): boolean {
  return /^[a-z][-+\w]+:/.test(link);
}

/**
 * Gitea util.URLJoin: the elements joined as a clean path and resolved against `base` as a directory (a joined
 * path starting with `/` is absolute on the base's host); an empty base resolves against `/`.
 */
export function urlJoin(base: string, ...elems: string[]): string {
  const joined = path.posix.join(...elems.filter(Boolean));
  const dir = base.endsWith('/') ? base : `${base}/`;
  try {
    const url = new URL(joined === '.' ? '' : joined, new URL(dir, 'http://relative.invalid/'));
    return url.origin === 'http://relative.invalid' ? `${url.pathname}${url.search}${url.hash}` : url.toString();
  } catch {
    return `${dir}${joined}`;
  }
}

/**
 * The bases of a render from the API's `Context` (Gitea RenderMarkup): `/{owner}/{repo}/src/{branch|commit|tag}/{ref}/{dir}`
 * gives the source links of a file at `filePath` in that ref; any other context is the base as it is. The
 * context is a path of this site (resolved against ROOT_URL) or an absolute URL.
 */
export function linksFromContext(rootUrl: string, context: string, filePath: string): Links {
  if (!context) return { base: '', branchPath: '', treePath: '' };
  const root = new URL(rootUrl);
  const absolute = isFullUrl(context) ? context : new URL(context.replace(/^\/+/, ''), root).toString();
  const base = absolute.replace(/\/+$/, '');
  const sub = root.pathname.replace(/\/+$/, '');
  const rel = new URL(absolute).pathname.slice(sub.length).replace(/^\/+/, '');
  const fields = rel.split('/');
  if (
    new URL(absolute).origin === root.origin &&
    fields.length >= 5 &&
    fields[2] === 'src' &&
    ['branch', 'commit', 'tag'].includes(fields[3] ?? '')
  ) {
    const fileDir = path.posix.dirname(filePath || '.');
    const treePath = fileDir === '.' ? '' : fileDir;
    let refPath = fields.slice(3).join('/');
    if (treePath && refPath.endsWith(`/${treePath}`)) refPath = refPath.slice(0, -treePath.length - 1);
    return { base: `${root.origin}${sub}/${fields[0]}/${fields[1]}`, branchPath: refPath, treePath };
  }
  return { base, branchPath: '', treePath: '' };
}

/** The bases of a repository's own documents (comments, release notes): the repository's page. */
export function repoLinks(rootUrl: string, owner: string, name: string): Links {
  return { base: `${rootUrl}${encodeURIComponent(owner)}/${encodeURIComponent(name)}`, branchPath: '', treePath: '' };
}

/** File types the wiki renders as pages (Gitea markup.Type): a link to one is a wiki page, not a raw file. */
const RENDERABLE = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);

/** Gitea transformLink: where a link's href points. Anchors and full URLs are kept (anchors get the id prefix later). */
export function resolveHref(links: Links, wiki: boolean, href: string): string {
  if (href.startsWith('#') || isFullUrl(href)) return href;
  let base = links.base;
  if (wiki) {
    const ext = path.posix.extname(href.split(/[?#]/)[0] ?? '');
    base = !ext || RENDERABLE.has(ext.toLowerCase()) ? `${links.base}/wiki` : `${links.base}/wiki/raw`;
  } else if (links.branchPath) {
    base = `${links.base}/src/${links.branchPath}/${links.treePath}`;
  }
  return urlJoin(base, href);
}

/** Gitea transformImage: where an image's src points (wiki raw files, the previewed ref's media, or the base). */
export function resolveMedia(links: Links, wiki: boolean, src: string): string {
  if (!src || isFullUrl(src)) return src;
  const base = wiki
    ? `${links.base}/wiki/raw`
    : links.branchPath
      ? `${links.base}/media/${links.branchPath}/${links.treePath}`
      : links.base;
  return urlJoin(base, src.replace(/^\/+/, ''));
}
