// What Gitea's post-processors recognize in text (modules/references and markup/html_*.go): @mentions, issue and
// pull request references (#1, !1, owner/repo#1), commit SHAs (own and owner/repo@sha) and wiki short links
// ([[Page]], [[Name|Page]]). This finds candidates only; whether each becomes a link is decided by lookups.

/** One recognized span of a text, `[start, end)`. */
export type Reference =
  | { kind: 'mention'; start: number; end: number; login: string }
  | { kind: 'issue'; start: number; end: number; owner: string | null; repo: string | null; index: number; pull: boolean }
  | { kind: 'commit'; start: number; end: number; owner: string | null; repo: string | null; sha: string }
  | { kind: 'wikiLink'; start: number; end: number; name: string; target: string };

// What may come before a reference (start of text, space, an opening bracket) and after it (end, space, closing
// bracket, or punctuation that ends a sentence).
const BEFORE = String.raw`(?:^|[\s(\[])`;
const AFTER = String.raw`(?=$|[\s)\]'"]|[:;,.?!](?:\s|$))`;
const NAME = '[0-9A-Za-z_.-]+';

const PATTERNS: Array<{ re: RegExp; make: (m: RegExpExecArray, start: number) => Reference | null }> = [
  {
    // Gitea mentionPattern: a user (or organization) name; `@org/team` is left alone.
    re: new RegExp(String.raw`${BEFORE}(@([0-9A-Za-z_](?:[0-9A-Za-z_.-]*[0-9A-Za-z_-])?))(?=$|[\s)\]']|[:;,.?!](?:\s|$))`, 'gu'),
    make: (m, start) => ({ kind: 'mention', start, end: start + (m[1]?.length ?? 0), login: m[2] ?? '' }),
  },
  {
    // Gitea issueNumericPattern and crossReferenceIssueNumericPattern: `#1` (an issue) or `!1` (a pull request).
    re: new RegExp(String.raw`(?:^|[\s(\['".])((?:(${NAME})/(${NAME}))?([#!])([0-9]+))${AFTER}`, 'gu'),
    make: (m, start) => {
      const index = Number(m[5]);
      if (!Number.isSafeInteger(index) || index <= 0) return null;
      return { kind: 'issue', start, end: start + (m[1]?.length ?? 0), owner: m[2] ?? null, repo: m[3] ?? null, index, pull: m[4] === '!' };
    },
  },
  {
    // Gitea hashCurrentPattern and commitCrossReferencePattern: a commit id, abbreviated to 7 or more digits.
    re: new RegExp(String.raw`${BEFORE}((?:(${NAME})/(${NAME})@)?([0-9a-f]{7,64}))(?=$|[\s)\]]|[.,:](?:\s|$))`, 'gu'),
    make: (m, start) => ({
      kind: 'commit',
      start,
      end: start + (m[1]?.length ?? 0),
      owner: m[2] ?? null,
      repo: m[3] ?? null,
      sha: m[4] ?? '',
    }),
  },
];

/** Gitea shortLinkPattern: `[[target]]` or `[[name|target]]`. */
const WIKI_LINK = /\[\[([^\]|]*?)(?:\|([^\]]*?))?\]\]/gu;

/** The references of `text`, in order and never overlapping (the earliest wins). */
export function findReferences(text: string, opts: { wikiLinks: boolean }): Reference[] {
  const found: Reference[] = [];
  const scan = (re: RegExp, make: (m: RegExpExecArray, start: number) => Reference | null, group: number) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const inner = m[group] ?? '';
      const start = m.index + m[0].indexOf(inner);
      const ref = make(m, start);
      if (ref) found.push(ref);
      // Boundaries are shared between neighbours (`#1 #2`): look again right after this one.
      if (re.lastIndex > start + inner.length) re.lastIndex = start + inner.length;
      if (m[0].length === 0) re.lastIndex++;
    }
  };
  if (opts.wikiLinks) {
    scan(
      WIKI_LINK,
      (m, start) => {
        const first = (m[1] ?? '').trim();
        const second = m[2]?.trim();
        const target = second ?? first;
        return target
          ? { kind: 'wikiLink', start, end: start + m[0].length, name: second === undefined ? first : first || target, target }
          : null;
      },
      0,
    );
  }
  for (const p of PATTERNS) scan(p.re, p.make, 1);
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Reference[] = [];
  let until = 0;
  for (const r of found) {
    if (r.start < until) continue;
    out.push(r);
    until = r.end;
  }
  return out;
}

/** Gitea base.ShortSha: the first 10 digits. */
export function shortSha(sha: string): string {
  return sha.slice(0, 10);
}
