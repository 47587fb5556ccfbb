// The CommonMark/GFM parser and HTML renderer (markdown-it, with tables, strikethrough, autolinks and emoji
// shortcodes): text → tokens → HTML. Nothing here is trusted: the HTML is sanitized afterwards (sanitize.ts).
import type { Env, MarkdownIt, Token } from 'markdown-it';
import { markdownItEmojiModule, markdownItModule } from '../../lazyPackage.ts';

/** What a render passes between its steps: the nonce that marks the markup we generate (sanitize.ts keeps its classes). */
export interface RenderEnv extends Env {
  nonce: string;
}

/** The attribute carrying the render's nonce on elements whose class we set ourselves. */
export const INTERNAL_ATTR = 'data-fg-internal';

/** Marks a token's element as ours: its `class` survives sanitizing. */
export function markInternal(token: Token, env: RenderEnv, className: string): void {
  token.attrSet('class', className);
  token.attrSet(INTERNAL_ATTR, env.nonce);
}

/** Autolinks as GFM has them (URLs with a scheme, e-mail addresses, not bare domain names) and emoji shortcodes. */
function withLinksAndEmoji(md: MarkdownIt): MarkdownIt {
  md.linkify.set({ fuzzyLink: false, fuzzyEmail: true });
  // Shortcodes only (`:smile:`), not `:)` (Gitea leaves those as typed).
  md.use(markdownItEmojiModule().full, { shortcuts: {} });
  // Gitea html_emoji.go createEmoji: `<span class="emoji" aria-label="…">😄</span>`.
  md.renderer.rules.emoji = (tokens, idx, _options, env) => {
    const t = tokens[idx];
    if (!t) return '';
    const label = md.utils.escapeHtml(t.markup.replace(/_/g, ' '));
    const nonce = md.utils.escapeHtml(String((env as RenderEnv | undefined)?.nonce ?? ''));
    return `<span class="emoji" aria-label="${label}" ${INTERNAL_ATTR}="${nonce}">${t.content}</span>`;
  };
  return md;
}

// Raw HTML is allowed (Gitea's goldmark renders it) and sanitized after rendering.
const build = (breaks: boolean) => withLinksAndEmoji(markdownItModule()({ html: true, linkify: true, breaks, xhtmlOut: true }));

interface Parsers {
  /** Comments and the raw mode break lines where the text does (Gitea EnableHardLineBreakInComments); documents do not. */
  comment: MarkdownIt;
  document: MarkdownIt;
  /** Plain text with its URLs linked and its emoji shortcodes (Gitea's description processing): no markdown at all. */
  description: MarkdownIt;
}
let built: Parsers | undefined;

/** The parsers, built at the first render: markdown-it and its emoji table are not loaded by a server start. */
function parsers(): Parsers {
  return (built ??= {
    comment: build(true),
    document: build(false),
    description: withLinksAndEmoji(markdownItModule()('zero', { linkify: true }).enable(['linkify'])),
  });
}

/** The line break style of a render. */
export type LineBreaks = 'comment' | 'document';

/** The tokens of `text`. */
export function parseMarkdown(text: string, breaks: LineBreaks, env: RenderEnv): Token[] {
  return parsers()[breaks].parse(text, env);
}

/** The HTML of (transformed) tokens. */
export function renderTokens(tokens: Token[], breaks: LineBreaks, env: RenderEnv): string {
  const md = parsers()[breaks];
  return md.renderer.render(tokens, md.options, env);
}

/** A new token of the kind `like` is (markdown-it's Token class, which the package exports only as a type). */
export function newToken(like: Token, type: string, tag: string, nesting: -1 | 0 | 1): Token {
  const Ctor = like.constructor as new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;
  const t = new Ctor(type, tag, nesting);
  t.level = like.level;
  return t;
}

/** The HTML of a plain-text description: escaped, URLs linked, emoji shortcodes replaced. */
export function renderDescription(text: string, env: RenderEnv): string {
  return parsers().description.renderInline(text, env);
}
