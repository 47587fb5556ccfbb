// Markup rendering (Gitea routers/common/markup.go RenderMarkup and modules/markup): markdown to sanitized HTML
// in Gitea's modes, for POST /markdown, /markdown/raw and /markup, and the graph's bodyHTML and descriptionHTML.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { requireRepo } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { collectCandidates, decorate, type DocContext } from './decorate.ts';
import { linksFromContext, repoLinks } from './links.ts';
import { gitDirOf, noNeeds, resolveLookups } from './lookups.ts';
import { parseMarkdown, renderDescription, renderTokens, type LineBreaks, type RenderEnv } from './markdown.ts';
import { sanitize } from './sanitize.ts';

/** The most text one request renders (UTF-8 bytes). */
export const MAX_MARKUP_BYTES = 1024 * 1024;

/** File names the `file` mode renders (Gitea's markdown renderer's extensions). */
const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);

/** Gitea MarkupOption / MarkdownOption. */
export interface MarkupInput {
  /** `markdown` (or empty: raw), `comment`, `gfm`, `wiki`, `file`. */
  mode?: string | undefined;
  text: string;
  /** The URL path links are resolved against: `/{owner}/{repo}` or `/{owner}/{repo}/src/{branch|commit|tag}/{ref}/{dir}`. */
  context?: string | undefined;
  /** The previewed file (`file` mode): its extension picks the renderer, its directory the relative links' base. */
  filePath?: string | undefined;
  /** Deprecated: the same as mode `wiki`. */
  wiki?: boolean | undefined;
}

/** One document of a batch. */
interface Doc {
  text: string;
  breaks: LineBreaks;
  ctx: DocContext;
}

/** Renders a batch of documents with one set of lookups (one query per kind, one git process per repository). */
async function renderDocs(cx: ServiceContext, docs: readonly Doc[], gitDirs: ReadonlyMap<number, string>): Promise<string[]> {
  const env: RenderEnv = { nonce: randomBytes(12).toString('base64url') };
  const needs = noNeeds();
  const parsed = docs.map((d) => {
    const tokens = parseMarkdown(d.text, d.breaks, env);
    return { d, tokens, candidates: collectCandidates(tokens, d.ctx, needs) };
  });
  const found = await resolveLookups(cx, needs, gitDirs);
  return parsed.map(({ d, tokens, candidates }) => {
    decorate(tokens, d.ctx, candidates, found, env);
    return sanitize(renderTokens(tokens, d.breaks, env), env.nonce);
  });
}

function requireSize(text: string): void {
  const size = Buffer.byteLength(text);
  if (size > MAX_MARKUP_BYTES) {
    throw new ValidationError(`the text to render is ${size} bytes, more than the limit of ${MAX_MARKUP_BYTES} bytes`, {
      reason: 'TOO_LARGE',
    });
  }
}

/** The repository a context path names, when the viewer can see it (else none: its references stay text). */
async function contextRepo(cx: ServiceContext, context: string): Promise<DocContext['repo']> {
  let rel: string;
  try {
    const root = new URL(cx.config.rootUrl);
    const url = new URL(context.replace(/^\/+/, ''), root);
    if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return null;
    rel = url.pathname.slice(root.pathname.length);
  } catch {
    return null;
  }
  const [owner, name] = rel.split('/').map((s) => decodeURIComponent(s));
  if (!owner || !name) return null;
  try {
    const { repo } = await requireRepo(cx, owner, name);
    return { id: repo.id, owner: repo.ownerName, name: repo.name };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/**
 * POST /markup and /markdown (Gitea RenderMarkup): `markdown` renders raw (no mentions, references or emoji);
 * `comment` breaks lines and links `#1`; `gfm` and `file` are documents (only `owner/repo#1` links); `wiki` adds
 * wiki links. The context's repository (when the viewer can see it) is where `#1` and commit ids point.
 * @throws ValidationError (unknown mode, a file that is not markdown, text over MAX_MARKUP_BYTES)
 */
export async function renderMarkup(cx: ServiceContext, input: MarkupInput): Promise<string> {
  requireSize(input.text);
  const mode = input.wiki ? 'wiki' : input.mode || 'markdown';
  if (!['markdown', 'comment', 'gfm', 'wiki', 'file'].includes(mode)) throw new ValidationError(`Unknown mode: ${mode}`);
  const raw = mode === 'markdown';
  const filePath = mode === 'file' ? (input.filePath ?? '') : '';
  if (mode === 'file') {
    if (!filePath) throw new ValidationError('unsupported markup type: ""');
    if (!MARKDOWN_EXTENSIONS.has(path.posix.extname(filePath).toLowerCase())) {
      throw new ValidationError(`unsupported file to render: ${JSON.stringify(filePath)}`);
    }
  }
  const context = input.context ?? '';
  const links = raw ? linksFromContext(cx.config.rootUrl, context, '') : linksFromContext(cx.config.rootUrl, context, filePath);
  const repo = raw || !context ? null : await contextRepo(cx, context);
  const ctx: DocContext = {
    rootUrl: cx.config.rootUrl,
    links: raw ? { ...links, branchPath: '', treePath: '' } : links,
    wiki: mode === 'wiki',
    repo,
    shortRefs: mode === 'comment' || mode === 'wiki',
    postProcess: !raw,
  };
  const gitDirs = new Map(repo ? [[repo.id, gitDirOf(cx, { ownerName: repo.owner, name: repo.name })]] : []);
  const [html] = await renderDocs(cx, [{ text: input.text, breaks: mode === 'comment' || raw ? 'comment' : 'document', ctx }], gitDirs);
  return html ?? '';
}

/** POST /markdown/raw: the body rendered in the raw mode, without a context. @throws ValidationError (too large) */
export function renderMarkdownRaw(cx: ServiceContext, text: string): Promise<string> {
  return renderMarkup(cx, { mode: 'markdown', text });
}

/** A stored text and the repository it belongs to (an issue, comment, review or release the viewer can read). */
export interface RepoText {
  text: string;
  repoId: number;
}

async function repoRows(cx: ServiceContext, ids: readonly number[]) {
  const rows = await cx.db.repository.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, ownerName: true, name: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * The HTML of bodies (GitHub's bodyHTML) as Gitea renders comments: line breaks kept, `#1` and commit ids of the
 * body's repository linked, relative links against the repository. Batched: one query per kind for all of them.
 * The caller has already shown the viewer each text's parent.
 */
export async function renderBodies(cx: ServiceContext, items: readonly RepoText[]): Promise<string[]> {
  if (!items.length) return [];
  const repos = await repoRows(
    cx,
    items.map((i) => i.repoId),
  );
  const gitDirs = new Map([...repos.values()].map((r) => [r.id, gitDirOf(cx, r)]));
  const docs = items.map((item): Doc => {
    const r = repos.get(item.repoId);
    return {
      text: item.text,
      breaks: 'comment',
      ctx: {
        rootUrl: cx.config.rootUrl,
        links: r ? repoLinks(cx.config.rootUrl, r.ownerName, r.name) : { base: '', branchPath: '', treePath: '' },
        wiki: false,
        repo: r ? { id: r.id, owner: r.ownerName, name: r.name } : null,
        shortRefs: true,
        postProcess: true,
      },
    };
  });
  return renderDocs(cx, docs, gitDirs);
}

/** The HTML of repository descriptions (GitHub's descriptionHTML, `<div>…</div>`): text with its URLs linked and emoji. */
export function renderDescriptions(_cx: ServiceContext, texts: readonly string[]): string[] {
  return texts.map((text) => {
    const env: RenderEnv = { nonce: randomBytes(12).toString('base64url') };
    return `<div>${sanitize(renderDescription(text, env), env.nonce)}</div>`;
  });
}
