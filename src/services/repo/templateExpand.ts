// Gitea's template variables (services/repository/generate.go): the `.gitea/template` rules, `$VAR` /
// `${VAR}` expansion with the case transformers, and the file name sanitizer for expanded paths.
import { compileGlob } from '../glob.ts';

/** The values a generated repository's files are expanded with. */
export interface TemplateVars {
  repoName: string;
  repoOwner: string;
  repoDescription: string;
  repoLink: string;
  repoHttpsUrl: string;
  repoSshUrl: string;
  templateName: string;
  templateOwner: string;
  templateDescription: string;
  templateLink: string;
  templateHttpsUrl: string;
  templateSshUrl: string;
  now: Date;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** xstrings' word split: runs of capitals, capitalised words, lower-case words (digits stay with their word). */
function words(s: string): string[] {
  return s.match(/[A-Z]+(?![a-z])[0-9]*|[A-Z]?[a-z]+[0-9]*|[0-9]+/g) ?? [];
}

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

/** Gitea's defaultTransformers: `<NAME>_SNAKE`, `_KEBAB`, `_CAMEL`, `_PASCAL`, `_LOWER`, `_UPPER`, `_TITLE`. */
const TRANSFORMERS: ReadonlyArray<[string, (s: string) => string]> = [
  [
    'SNAKE',
    (s) =>
      words(s)
        .map((w) => w.toLowerCase())
        .join('_'),
  ],
  [
    'KEBAB',
    (s) =>
      words(s)
        .map((w) => w.toLowerCase())
        .join('-'),
  ],
  [
    'CAMEL',
    (s) =>
      words(s)
        .map((w, i) => (i === 0 ? w.toLowerCase() : capital(w)))
        .join(''),
  ],
  ['PASCAL', (s) => words(s).map(capital).join('')],
  ['LOWER', (s) => s.toLowerCase()],
  ['UPPER', (s) => s.toUpperCase()],
  ['TITLE', (s) => s.replace(/[\p{L}\p{N}_']+/gu, capital)],
];

/** The expansion map: each variable, and each transformed form of the ones Gitea transforms. */
export function templateExpansions(v: TemplateVars): Map<string, string> {
  const pad = (n: number) => String(n).padStart(2, '0');
  const plain: Array<[string, string, boolean]> = [
    ['YEAR', String(v.now.getUTCFullYear()), false],
    ['MONTH', pad(v.now.getUTCMonth() + 1), false],
    ['MONTH_ENGLISH', MONTHS[v.now.getUTCMonth()] ?? '', true],
    ['DAY', pad(v.now.getUTCDate()), false],
    ['REPO_NAME', v.repoName, true],
    ['TEMPLATE_NAME', v.templateName, true],
    ['REPO_DESCRIPTION', v.repoDescription, false],
    ['TEMPLATE_DESCRIPTION', v.templateDescription, false],
    ['REPO_OWNER', v.repoOwner, true],
    ['TEMPLATE_OWNER', v.templateOwner, true],
    ['REPO_LINK', v.repoLink, false],
    ['TEMPLATE_LINK', v.templateLink, false],
    ['REPO_HTTPS_URL', v.repoHttpsUrl, false],
    ['TEMPLATE_HTTPS_URL', v.templateHttpsUrl, false],
    ['REPO_SSH_URL', v.repoSshUrl, false],
    ['TEMPLATE_SSH_URL', v.templateSshUrl, false],
  ];
  const map = new Map<string, string>();
  for (const [name, value, transformed] of plain) {
    map.set(name, value);
    if (transformed) for (const [suffix, fn] of TRANSFORMERS) map.set(`${name}_${suffix}`, fn(value));
  }
  return map;
}

const isAlphaNum = (c: string) => /^[A-Za-z0-9_]$/.test(c);
const isSpecial = (c: string) => /^[*#$@!?\-0-9]$/.test(c);

/** Go's os.getShellName: the variable name after a `$` and how many characters it spans. */
function shellName(s: string): [string, number] {
  if (s[0] === '{') {
    if (s.length > 2 && isSpecial(s[1] ?? '') && s[2] === '}') return [s.slice(1, 2), 3];
    const close = s.indexOf('}', 1);
    if (close === 1) return ['', 2];
    return close < 0 ? ['', 1] : [s.slice(1, close), close + 1];
  }
  if (isSpecial(s[0] ?? '')) return [s.slice(0, 1), 1];
  let i = 0;
  while (i < s.length && isAlphaNum(s[i] ?? '')) i++;
  return [s.slice(0, i), i];
}

/**
 * Go's os.Expand with Gitea's mapping: `$NAME` and `${NAME}` become the variable's value; an unknown name
 * becomes the bare name (`$FOO` → `FOO`, Gitea's behaviour); `${}` and an unclosed `${` are dropped.
 */
export function expandTemplate(src: string, vars: ReadonlyMap<string, string>): string {
  let out = '';
  let i = 0;
  for (let j = 0; j < src.length; j++) {
    if (src[j] !== '$' || j + 1 >= src.length) continue;
    out += src.slice(i, j);
    const [name, width] = shellName(src.slice(j + 1));
    if (name === '' && width === 0) out += '$';
    else if (name !== '') out += vars.get(name) ?? name;
    j += width;
    i = j + 1;
  }
  return out + src.slice(i);
}

// eslint-disable-next-line no-control-regex -- Gitea's fileNameSanitizeRegexp replaces control characters too
const UNSAFE_NAME = /[<>:"/\\|?*\u0000-\u001f]|^(con|prn|aux|nul|com\d|lpt\d)$/gi;

/** Gitea filePathSanitize: each path segment made safe (reserved characters and names, `..`, `.git`). */
export function sanitizeTemplatePath(p: string): string {
  const fields = p.split('/').map((segment) => {
    let f = segment.replace(UNSAFE_NAME, '_').trim();
    if (f.startsWith('..')) f = `__${f.slice(2)}`;
    if (f.toLowerCase() === '.git') f = `_${f.slice(1)}`;
    return f;
  });
  return fields.filter((f) => f !== '' && f !== '.').join('/');
}

/** The rules of a `.gitea/template` file: globs of files to expand and of paths to leave out. */
export interface TemplateRules {
  expand: Array<(path: string) => boolean>;
  exclude: Array<(path: string) => boolean>;
}

/** Parses `.gitea/template`: one glob a line (`#` comments), `[expand]` (the default) and `[exclude]` sections; bad globs are skipped. */
export function parseTemplateRules(content: string): TemplateRules {
  const rules: TemplateRules = { expand: [], exclude: [] };
  let current = rules.expand;
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      if (line === '[expand]') current = rules.expand;
      else if (line === '[exclude]') current = rules.exclude;
      continue;
    }
    try {
      current.push(compileGlob(line, { separators: '/' }));
    } catch {
      // Gitea skips a glob that does not compile.
    }
  }
  return rules;
}

/** Whether `path` or one of its directories matches an exclude rule (Gitea removes a matching directory whole). */
export function isExcluded(rules: TemplateRules, path: string): boolean {
  const parts = path.split('/');
  for (let n = 1; n <= parts.length; n++) {
    const prefix = parts.slice(0, n).join('/');
    if (rules.exclude.some((m) => m(prefix))) return true;
  }
  return false;
}
