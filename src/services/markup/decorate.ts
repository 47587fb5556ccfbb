// Gitea's markdown AST transforms and post-processors, on markdown-it's tokens: links and images resolved against
// the render's bases (images wrapped in a link), heading ids, task list checkboxes, and the references of
// references.ts turned into links where the lookups allow (outside links and code only).
import type { Token } from 'markdown-it';
import type { Links } from './links.ts';
import { resolveHref, resolveMedia, urlJoin } from './links.ts';
import { markInternal, newToken, type RenderEnv } from './markdown.ts';
import { findReferences, shortSha, type Reference } from './references.ts';

/** How one document renders. */
export interface DocContext {
  rootUrl: string;
  links: Links;
  /** Wiki links (`[[Page]]`) and wiki-relative links. */
  wiki: boolean;
  /** The repository `#1` and bare SHAs belong to; null: none (only `owner/repo#1` forms can link). */
  repo: { id: number; owner: string; name: string } | null;
  /** Whether `#1` and `!1` link (comments and wiki pages) or only `owner/repo#1` (documents). */
  shortRefs: boolean;
  /** Mentions, references and emoji (Gitea's post-processing); the raw mode has none. */
  postProcess: boolean;
}

/** What the lookups found (lower-case keys): who may be mentioned, which repositories the viewer sees, which commits exist. */
export interface Lookups {
  mentionable: ReadonlySet<string>;
  repos: ReadonlyMap<string, { owner: string; name: string }>;
  commits: ReadonlyMap<number, ReadonlySet<string>>;
}

/** What a document's references ask the lookups. */
export interface Needs {
  logins: Set<string>;
  repos: Set<string>;
  /** Repository id → candidate commit ids. */
  commits: Map<number, Set<string>>;
}

/** The text tokens of a document outside links, with their references. */
export type Candidates = Map<Token, Reference[]>;

const IMAGE_EXT = /\.(png|jpe?g|gif|webp|svg|bmp|ico|avif|tiff?)$/i;

/** Calls `fn` for each inline child with whether it sits inside a link (markdown or raw HTML `<a>`). */
function eachInline(tokens: Token[], fn: (child: Token, parent: Token, inLink: boolean) => void): void {
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let depth = 0;
    for (const child of [...block.children]) {
      if (child.type === 'link_open' || (child.type === 'html_inline' && /^<a[\s>]/i.test(child.content))) depth++;
      fn(child, block, depth > 0);
      if (child.type === 'link_close' || (child.type === 'html_inline' && /^<\/a\s*>/i.test(child.content))) depth = Math.max(0, depth - 1);
    }
  }
}

/** The references of a document's text, and what they need looked up. */
export function collectCandidates(tokens: Token[], ctx: DocContext, needs: Needs): Candidates {
  const found: Candidates = new Map();
  if (!ctx.postProcess) return found;
  eachInline(tokens, (child, _parent, inLink) => {
    if (child.type !== 'text' || inLink) return;
    const refs = findReferences(child.content, { wikiLinks: ctx.wiki });
    if (!refs.length) return;
    found.set(child, refs);
    for (const r of refs) {
      if (r.kind === 'mention') needs.logins.add(r.login.toLowerCase());
      else if ((r.kind === 'issue' || r.kind === 'commit') && r.owner && r.repo) needs.repos.add(`${r.owner}/${r.repo}`.toLowerCase());
      else if (r.kind === 'commit' && ctx.repo) {
        const shas = needs.commits.get(ctx.repo.id) ?? new Set<string>();
        shas.add(r.sha);
        needs.commits.set(ctx.repo.id, shas);
      }
    }
  });
  return found;
}

/** A link token pair around text (or around a `code` element, for commit ids). */
function linkTokens(like: Token, env: RenderEnv, href: string, text: string, cls: string | null, code = false): Token[] {
  const open = newToken(like, 'link_open', 'a', 1);
  open.attrSet('href', href);
  if (cls) markInternal(open, env, cls);
  const inner = newToken(like, code ? 'code_inline' : 'text', code ? 'code' : '', 0);
  inner.content = text;
  if (code) markInternal(inner, env, 'nohighlight');
  return [open, inner, newToken(like, 'link_close', 'a', -1)];
}

/** An image linking to itself (Gitea wraps images that are not inside a link). */
function imageTokens(like: Token, src: string, alt: string, title: string): Token[] {
  const open = newToken(like, 'link_open', 'a', 1);
  open.attrSet('href', src);
  const img = newToken(like, 'image', 'img', 0);
  img.attrs = [
    ['src', src],
    ['alt', ''],
  ];
  if (title) img.attrSet('title', title);
  const altText = newToken(like, 'text', '', 0);
  altText.content = alt;
  img.children = [altText];
  img.content = alt;
  return [open, img, newToken(like, 'link_close', 'a', -1)];
}

/** The tokens a reference becomes, or null when it stays text. */
function referenceTokens(like: Token, r: Reference, text: string, ctx: DocContext, found: Lookups, env: RenderEnv): Token[] | null {
  const app = (p: string) => `${ctx.rootUrl}${p}`;
  switch (r.kind) {
    case 'mention':
      // Gitea html_mention.go: existing users the viewer may see.
      return found.mentionable.has(r.login.toLowerCase()) ? linkTokens(like, env, app(encodeURIComponent(r.login)), text, null) : null;
    case 'issue': {
      const target = r.owner && r.repo ? found.repos.get(`${r.owner}/${r.repo}`.toLowerCase()) : ctx.shortRefs ? ctx.repo : null;
      if (!target) return null;
      const kind = r.pull ? 'pulls' : 'issues';
      return linkTokens(like, env, app(`${enc(target.owner)}/${enc(target.name)}/${kind}/${r.index}`), text, 'ref-issue');
    }
    case 'commit': {
      if (r.owner && r.repo) {
        const target = found.repos.get(`${r.owner}/${r.repo}`.toLowerCase());
        if (!target) return null;
        const href = app(`${enc(target.owner)}/${enc(target.name)}/commit/${r.sha}`);
        return linkTokens(like, env, href, `${r.owner}/${r.repo}@${shortSha(r.sha)}`, 'commit');
      }
      if (!ctx.repo || !found.commits.get(ctx.repo.id)?.has(r.sha)) return null;
      return linkTokens(like, env, app(`${enc(ctx.repo.owner)}/${enc(ctx.repo.name)}/commit/${r.sha}`), shortSha(r.sha), 'commit', true);
    }
    case 'wikiLink': {
      if (IMAGE_EXT.test(r.target)) {
        const src = urlJoin(`${ctx.links.base}/wiki/raw`, r.target.replace(/ /g, '+'));
        return imageTokens(like, src, r.name === r.target ? r.target : r.name, r.target.slice(r.target.lastIndexOf('/') + 1));
      }
      const page = r.target.replace(/ /g, '-');
      return linkTokens(like, env, urlJoin(`${ctx.links.base}/wiki`, page.includes('/') ? page : encodeURIComponent(page)), r.name, null);
    }
  }
}

const enc = encodeURIComponent;

/** A text token split around the references that become links. */
function splitText(token: Token, refs: Reference[], ctx: DocContext, found: Lookups, env: RenderEnv): Token[] | null {
  const out: Token[] = [];
  let at = 0;
  const text = (s: string) => {
    if (!s) return;
    const t = newToken(token, 'text', '', 0);
    t.content = s;
    out.push(t);
  };
  for (const r of refs) {
    const made = referenceTokens(token, r, token.content.slice(r.start, r.end), ctx, found, env);
    if (!made) continue;
    text(token.content.slice(at, r.start));
    out.push(...made);
    at = r.end;
  }
  if (at === 0) return null;
  text(token.content.slice(at));
  return out;
}

/** GitHub's and Gitea's heading slug: lower case, letters, digits, `-` and `_`, spaces as `-`. */
function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Heading ids (`user-content-<slug>`, numbered when repeated) and task list items (`[ ]`/`[x]` → a disabled checkbox). */
function decorateBlocks(tokens: Token[], env: RenderEnv): void {
  const seen = new Map<string, number>();
  tokens.forEach((t, i) => {
    const inline = tokens[i + 1];
    if (t.type === 'heading_open' && inline?.type === 'inline') {
      const base = slug((inline.children ?? []).map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : '')).join(''));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      t.attrSet('id', `user-content-${n ? `${base}-${n}` : base}`);
    }
    const para = tokens[i + 1];
    const content = tokens[i + 2];
    if (t.type !== 'list_item_open' || para?.type !== 'paragraph_open' || content?.type !== 'inline') return;
    const first = content.children?.[0];
    const m = first?.type === 'text' ? /^\[([ xX])\](?:\s|$)/.exec(first.content) : null;
    if (!first || !m) return;
    markInternal(t, env, 'task-list-item');
    first.content = first.content.slice(m[0].length);
    const box = newToken(first, 'html_inline', '', 0);
    box.content = `<input type="checkbox" disabled=""${m[1] === ' ' ? '' : ' checked=""'} data-source-position="${t.map?.[0] ?? 0}"/>`;
    content.children?.unshift(box);
  });
}

/** Applies the transforms to a document's tokens (in place). */
export function decorate(tokens: Token[], ctx: DocContext, candidates: Candidates, found: Lookups, env: RenderEnv): void {
  decorateBlocks(tokens, env);
  const replace = new Map<Token, Token[]>();
  eachInline(tokens, (child, _parent, inLink) => {
    if (child.type === 'link_open') {
      const href = child.attrGet('href');
      if (href !== null) child.attrSet('href', resolveHref(ctx.links, ctx.wiki, String(href)));
    } else if (child.type === 'image') {
      const src = resolveMedia(ctx.links, ctx.wiki, String(child.attrGet('src') ?? ''));
      child.attrSet('src', src);
      if (!inLink) {
        const [open, , close] = imageTokens(child, src, '', '');
        replace.set(child, [open!, child, close!]);
      }
    } else if (child.type === 'emoji' && !ctx.postProcess) {
      child.type = 'text';
      child.content = `:${child.markup}:`;
    } else {
      const refs = candidates.get(child);
      const split = refs ? splitText(child, refs, ctx, found, env) : null;
      if (split) replace.set(child, split);
    }
  });
  if (!replace.size) return;
  for (const block of tokens) {
    if (block.type === 'inline' && block.children) block.children = block.children.flatMap((c) => replace.get(c) ?? [c]);
  }
}
