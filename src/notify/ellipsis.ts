/** Gitea's display-width guess: Latin-1 is 1, marks, format characters and spaces 1, everything else (CJK, emoji) 2. */
function guessWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp <= 255) return 1;
  if (cp === 0x3000) return 2;
  return /^[\p{M}\p{Cf}\p{Cs}\p{Z}]$/u.test(ch) ? 1 : 2;
}

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Gitea util.EllipsisDisplayString: cuts `str` to about `limit` display columns and appends "…"; a string of at
 * most `limit` bytes, or one that only 3 more characters would complete, is kept whole.
 */
export function ellipsisDisplayString(str: string, limit: number): { text: string; truncated: boolean } {
  if (bytes(str) <= limit) return { text: str, truncated: false };
  const chars = [...str];
  let used = 0;
  let kept = 0;
  let pos = 0;
  for (let i = 0; i < chars.length; i++) {
    pos = i;
    const w = guessWidth(chars[i] ?? '');
    if (used + w + 3 > limit) break;
    used += w;
    kept = i + 1;
  }
  const rest = chars.slice(pos);
  if (bytes(rest.join('')) <= 12) {
    const next = rest.slice(0, 4);
    const nextWidth = next.reduce((n, ch) => n + guessWidth(ch), 0);
    if (next.length <= 3 && used + nextWidth <= limit) return { text: str, truncated: false };
  }
  const left = chars.slice(0, kept).join('');
  return { text: limit < 3 ? left : `${left}…`, truncated: true };
}

/**
 * The comment excerpt of Gitea's feed (`comment_issue` content `"{index}|{excerpt}"`): 200 display columns, and a
 * cut that falls in the last few characters of a word drops that word (services/feed CreateIssueComment).
 */
export function feedExcerpt(content: string): string {
  const { text, truncated } = ellipsisDisplayString(content, 200);
  if (!truncated) return text;
  const space = text.lastIndexOf(' ');
  if (space !== -1 && bytes(text) - bytes(text.slice(0, space)) < 15) return `${text.slice(0, space)}…`;
  return text;
}
