// gobwas/glob, as Gitea compiles branch filters, host patterns, protected branch rules and file patterns: `**`
// matches any run of characters, `*` any run without a separator (without separators: any run), `?` one
// non-separator character, `[abc]` / `[a-z]` / `[!abc]` a class, `{a,b}` alternatives (which may hold globs),
// `\` escapes the next character.

function escapeRe(ch: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(ch) ? `\\${ch}` : ch;
}

/** Compiles a glob to an anchored regular expression source. Throws an Error on a malformed pattern. */
function compileSource(p: string, start: number, inBraces: boolean, seps: string): { src: string; end: number } {
  const any = seps ? `[^${seps.replace(/[\\^\]-]/g, (c) => `\\${c}`)}]` : '[\\s\\S]';
  let src = '';
  let i = start;
  const alts: string[] = [];
  while (i < p.length) {
    const ch = p[i] as string;
    if (ch === '\\') {
      if (i + 1 >= p.length) throw new Error('unexpected end of pattern after \\');
      src += escapeRe(p[i + 1] as string);
      i += 2;
    } else if (ch === '*') {
      const from = i;
      while (p[i] === '*') i++;
      src += i - from > 1 ? '[\\s\\S]*' : `${any}*`;
    } else if (ch === '?') {
      src += any;
      i++;
    } else if (ch === '[') {
      const close = p.indexOf(']', i + 1);
      if (close < 0) throw new Error('unclosed [ in pattern');
      let body = p.slice(i + 1, close);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      if (!body) throw new Error('empty character class in pattern');
      const cls = body.replace(/[\\^\]]/g, (c) => `\\${c}`);
      src += `[${negate ? '^' : ''}${cls}]`;
      i = close + 1;
    } else if (ch === '{') {
      const inner = compileSource(p, i + 1, true, seps);
      src += inner.src;
      i = inner.end + 1;
    } else if (inBraces && ch === ',') {
      alts.push(src);
      src = '';
      i++;
    } else if (inBraces && ch === '}') {
      alts.push(src);
      return { src: `(?:${alts.join('|')})`, end: i };
    } else {
      src += escapeRe(ch);
      i++;
    }
  }
  if (inBraces) throw new Error('unclosed { in pattern');
  return { src, end: i };
}

/** A matcher for a glob (gobwas/glob semantics, no separators). Throws an Error when the pattern is malformed. */
export function compileGlob(pattern: string, opts: { nocase?: boolean; separators?: string } = {}): (s: string) => boolean {
  const re = new RegExp(`^${compileSource(pattern, 0, false, opts.separators ?? '').src}$`, opts.nocase ? 'i' : '');
  return (s) => re.test(s);
}

/** Gitea's GlobPattern binding: the pattern compiles. */
export function isValidGlob(pattern: string): boolean {
  try {
    compileGlob(pattern);
    return true;
  } catch {
    return false;
  }
}

/** Gitea checkBranch: `""` and `*` pass everything, otherwise the glob must match the branch name. */
export function branchFilterAllows(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*' || filter === '**') return true;
  try {
    return compileGlob(filter)(branch);
  } catch {
    return false;
  }
}
