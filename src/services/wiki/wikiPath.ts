// Wiki page names (Gitea services/wiki/wiki_path.go): a page has a title ("Home Page"), a web path (the URL
// segment, "Home-Page": spaces become dashes and the rest is query-escaped; a segment that has dashes of its own
// is marked with a ".-" suffix instead) and a git path (the web path with spaces back, plus ".md").
import path from 'node:path';
import { InvalidArgumentError } from '../../errors.ts';

/** Names a page may not have (they are the wiki's own web pages). */
const RESERVED = ['_pages', '_new', '_edit', 'raw'];

const DASH_MARKER = '.-';

/** Go url.QueryEscape: everything but letters, digits and `-_.~` is %XX, a space is `+`. */
function queryEscape(s: string): string {
  // Through UTF-8 first: a lone surrogate becomes U+FFFD instead of making encodeURIComponent throw.
  return encodeURIComponent(Buffer.from(s).toString('utf8'))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Go url.QueryUnescape (`plus`: `+` is a space) and url.PathUnescape; null where Go fails (a bad % escape). */
function unescape(s: string, plus: boolean): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === '+' && plus) {
      bytes.push(0x20);
    } else {
      bytes.push(...Buffer.from(c));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Gitea util.PathJoinRelX: joined, cleaned, relative (never above the root); `.` for the root itself. */
function pathJoinRelX(...elems: string[]): string {
  const parts = elems.filter(Boolean).map((e) => path.posix.normalize(`/${e.replace(/\\/g, '/')}`));
  if (!parts.length) return '';
  const joined = path.posix.normalize(path.posix.join(...parts));
  return joined === '/' ? '.' : joined.replace(/^\/+/, '').replace(/\/+$/, '');
}

/** A web path segment as its title: no dash marker (else dashes are spaces), unescaped. */
function unescapeSegment(s: string): string {
  const plain = s.endsWith(DASH_MARKER) ? s.slice(0, -DASH_MARKER.length) : s.replace(/-/g, ' ');
  return unescape(plain, true) ?? plain;
}

/** A title as a web path segment. */
function escapeSegToWeb(s: string, hadDashMarker: boolean): string {
  const marked = hadDashMarker || s.includes('-') || s.endsWith('.md');
  return queryEscape(marked ? `${s}${DASH_MARKER}` : s.replace(/ /g, '-'));
}

/** Gitea UserTitleToWebPath: the web path of a page title (`unnamed` for an empty one); never a subdirectory. */
export function userTitleToWebPath(title: string): string {
  const p = pathJoinRelX(escapeSegToWeb(title.trim(), false));
  return p === '' || p === '.' ? 'unnamed' : p;
}

/** Gitea WebPathFromRequest: the raw (still escaped) URL segment as a web path. */
export function webPathFromRequest(raw: string): string {
  return pathJoinRelX(raw).replace(/\//g, '%2F');
}

/** Gitea WebPathToGitPath: `Home-Page` → `Home Page.md`; a web path ending in `.md` names its file directly. */
export function webPathToGitPath(webPath: string): string {
  if (webPath.endsWith('.md')) return pathJoinRelX(unescape(webPath, false) ?? webPath);
  const segments = webPath.split('/').map((seg) => {
    const web = escapeSegToWeb(unescapeSegment(seg), seg.endsWith(DASH_MARKER));
    return web.replace(/%20/g, ' ').replace(/\+/g, ' ');
  });
  return `${segments.join('/')}.md`;
}

/** Gitea GitPathToWebPath: the web path of a file, or null for a file that is not a page (not `.md`, bad escapes). */
export function gitPathToWebPath(gitPath: string): string | null {
  if (!gitPath.endsWith('.md')) return null;
  const segments: string[] = [];
  for (const seg of gitPath.slice(0, -3).split('/')) {
    const plain = seg.endsWith(DASH_MARKER) ? seg.slice(0, -DASH_MARKER.length) : seg.replace(/-/g, ' ');
    const title = unescape(plain, true);
    if (title === null) return null;
    segments.push(escapeSegToWeb(title, seg.endsWith(DASH_MARKER)));
  }
  return segments.join('/');
}

/** Gitea WebPathToUserTitle: the title shown for a web path (its last segment). */
export function webPathToUserTitle(webPath: string): string {
  let display = path.posix.basename(webPath);
  if (display.endsWith('.md')) display = unescape(display.slice(0, -3), false) ?? display.slice(0, -3);
  return unescapeSegment(display);
}

/** Gitea validateWebPath: no segment may be a reserved name. @throws InvalidArgumentError */
export function requireUsableWebPath(webPath: string): void {
  for (const seg of webPath.split('/').map(unescapeSegment)) {
    if (RESERVED.includes(seg)) throw new InvalidArgumentError(`wiki title is reserved: ${seg}`, { title: seg });
  }
}
