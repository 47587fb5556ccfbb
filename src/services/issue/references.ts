// Issue references in text (Gitea modules/references): `#N`, `!N`, `owner/repo#N` and the closing/reopening keywords.
import { stripMarkdown } from '../../notify/mentions.ts';

/** What a resolved reference does (Gitea XRefAction). */
export type RefAction = 'NONE' | 'CLOSES' | 'REOPENS';

/** An unverified reference: `owner`/`name` empty for the same repository; `isPull` when written `!N`. */
export interface IssueReference {
  owner: string;
  name: string;
  index: number;
  isPull: boolean;
  action: RefAction;
}

/** Go RE2's `\s` (ASCII only). */
const S = '[\\t\\n\\f\\r ]';
const END = `(?:${S}|$|\\)|\\]|[:;,.?!]${S}|[:;,.?!]$)`;
const NAME = '[0-9a-zA-Z_.\\-]+';
/** Gitea issueNumericPattern. */
const NUMERIC = new RegExp(`(?:${S}|^|\\(|\\[|'|")([#!][0-9]+)(?:${S}|$|\\)|\\]|'|"|[:;,.?!]${S}|[:;,.?!]$)`);
/** Gitea crossReferenceIssueNumericPattern. */
const CROSS = new RegExp(`(?:${S}|^|\\(|\\[)(${NAME}/${NAME}[#!][0-9]+)${END}`);
/** Gitea validNamePattern (after lower-casing). */
const VALID_NAME = /^[a-z0-9_.-]+$/;

/** Gitea's default `[repository.pull-request] CLOSE_KEYWORDS` and `REOPEN_KEYWORDS`. */
export const CLOSE_KEYWORDS = ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved'];
export const REOPEN_KEYWORDS = ['reopen', 'reopens', 'reopened'];

const keywordPattern = (words: readonly string[]) => new RegExp(`(?:${S}|^|\\(|\\[)(${words.join('|')}):? $`, 'i');
const CLOSE = keywordPattern(CLOSE_KEYWORDS);
const REOPEN = keywordPattern(REOPEN_KEYWORDS);
/** Gitea keywordWindow: the longest keyword plus four characters before the reference hold any keyword match. */
const WINDOW = Math.max(...[...CLOSE_KEYWORDS, ...REOPEN_KEYWORDS].map((w) => w.length)) + 4;

/** Gitea findActionKeywords: the keyword right before the reference at `start`. */
function actionBefore(content: string, start: number): RefAction {
  const prefix = content.slice(Math.max(start - WINDOW, 0), start);
  if (CLOSE.test(prefix)) return 'CLOSES';
  if (REOPEN.test(prefix)) return 'REOPENS';
  return 'NONE';
}

/** Gitea getCrossReference: parses `[owner/name]#N` found at `start`. */
function parseReference(content: string, start: number, text: string): IssueReference | null {
  const sep = text.search(/[#!]/);
  if (sep < 0) return null;
  const index = Number(text.slice(sep + 1));
  if (!Number.isSafeInteger(index)) return null;
  const isPull = text[sep] === '!';
  const action = actionBefore(content, start);
  const repo = text.slice(0, sep);
  if (repo === '') return { owner: '', name: '', index, isPull, action };
  const parts = repo.toLowerCase().split('/');
  const [owner = '', name = ''] = parts;
  if (parts.length !== 2 || !VALID_NAME.test(owner) || !VALID_NAME.test(name)) return null;
  return { owner, name, index, isPull, action };
}

/** Every match of `pattern` in `content`, each scan resuming at the end of the previous reference (Gitea's loop). */
function scan(content: string, pattern: RegExp): IssueReference[] {
  const refs: IssueReference[] = [];
  let pos = 0;
  while (pos <= content.length) {
    const m = pattern.exec(content.slice(pos));
    if (!m || m[1] === undefined) break;
    const start = pos + m.index + m[0].indexOf(m[1]);
    const ref = parseReference(content, start, m[1]);
    if (ref) refs.push(ref);
    pos = start + m[1].length;
  }
  return refs;
}

function findInText(content: string): IssueReference[] {
  return [...scan(content, NUMERIC), ...scan(content, CROSS)];
}

/**
 * Whether a text may hold a reference: every one holds `#N`/`!N` (alone or after `owner/repo`), or is an issue or pull
 * request URL (rewritten to `owner/repo#N` before the scan). Dropping Markdown's code and links never makes one (what
 * it removes becomes a line break), so a text without this has none, and most texts are answered without the scans.
 */
const REFERENCE_MARK = /[#!][0-9]|\/(?:issues|pulls)\/[0-9]/;
export const mayReference = (content: string): boolean => REFERENCE_MARK.test(content);

/** The pattern of this instance's issue and pull request URLs (one instance, one root URL: the last one is kept). */
let urls: { rootUrl: string; pattern: RegExp } | null = null;
function urlPattern(rootUrl: string): RegExp {
  if (urls?.rootUrl !== rootUrl) {
    const escaped = rootUrl.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    urls = { rootUrl, pattern: new RegExp(`(${S}|^|\\(|\\[)${escaped}(${NAME}/${NAME})/(issues|pulls)/([0-9]+)(?=${END})`, 'g') };
  }
  return urls.pattern;
}

/**
 * Gitea FindAllIssueReferences: references in plain text (titles, commit messages); full issue and pull request
 * URLs of this instance (`{rootUrl}owner/repo/issues/N`, `…/pulls/N`) count as `owner/repo#N` / `owner/repo!N`.
 */
export function findReferences(content: string, rootUrl: string): IssueReference[] {
  const short = content.replace(
    urlPattern(rootUrl),
    (_all, lead: string, repo: string, kind: string, n: string) => `${lead}${repo}${kind === 'pulls' ? '!' : '#'}${n}`,
  );
  return findInText(short);
}

/** Gitea FindAllIssueReferencesMarkdown: references in what a reader sees of a Markdown body (code and links dropped). */
export function findReferencesMarkdown(content: string): IssueReference[] {
  return findInText(stripMarkdown(content));
}
