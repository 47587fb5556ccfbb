// Linguist-like language detection by file name (the linguist-languages data), with go-enry's cheap
// exclusions as Gitea applies them: vendored, generated, documentation, dotfiles and configuration files are
// not counted, and only programming and markup languages are (unless nothing else is found).
import * as linguist from 'linguist-languages';

/** What a language contributes to the statistics. */
export interface LanguageInfo {
  name: string;
  type: string;
  color: string | null;
}

interface Tables {
  byExtension: Map<string, LanguageInfo>;
  byFilename: Map<string, LanguageInfo>;
  byName: Map<string, LanguageInfo>;
}

/** Extensions several languages claim, settled as go-enry's defaults settle the common cases. */
const EXTENSION_WINNERS: Record<string, string> = {
  '.h': 'C',
  '.md': 'Markdown',
  '.ts': 'TypeScript',
  '.m': 'Objective-C',
  '.pl': 'Perl',
  '.pm': 'Perl',
  '.r': 'R',
  '.sql': 'SQL',
  '.v': 'Verilog',
  '.cs': 'C#',
  '.fs': 'F#',
  '.inc': 'PHP',
  '.rs': 'Rust',
  '.php': 'PHP',
  '.json': 'JSON',
  '.yml': 'YAML',
  '.yaml': 'YAML',
  '.xml': 'XML',
  '.html': 'HTML',
  '.cls': 'TeX',
  '.t': 'Perl',
  '.d': 'D',
  '.l': 'Lex',
  '.mod': 'Modula-2',
  '.sc': 'Scala',
  '.tsx': 'TSX',
  '.txt': 'Text',
  '.js': 'JavaScript',
  '.py': 'Python',
  '.rb': 'Ruby',
  '.sh': 'Shell',
  '.css': 'CSS',
  '.java': 'Java',
};

const TYPE_RANK: Record<string, number> = { programming: 0, markup: 1, data: 2, prose: 3 };

let tables: Tables | null = null;

function build(): Tables {
  const byExtension = new Map<string, LanguageInfo[]>();
  const byFilename = new Map<string, LanguageInfo>();
  const byName = new Map<string, LanguageInfo>();
  const primary = new Map<string, Set<string>>();
  for (const lang of Object.values(linguist) as linguist.Language[]) {
    const info: LanguageInfo = { name: lang.name, type: lang.type, color: lang.color ?? null };
    byName.set(lang.name, info);
    for (const [i, ext] of (lang.extensions ?? []).entries()) {
      const key = ext.toLowerCase();
      byExtension.set(key, [...(byExtension.get(key) ?? []), info]);
      if (i === 0) primary.set(key, new Set([...(primary.get(key) ?? []), lang.name]));
    }
    for (const file of lang.filenames ?? []) if (!byFilename.has(file)) byFilename.set(file, info);
  }
  const chosen = new Map<string, LanguageInfo>();
  for (const [ext, candidates] of byExtension) {
    const winner = EXTENSION_WINNERS[ext];
    const ranked = [...candidates].sort(
      (a, b) =>
        Number(b.name === winner) - Number(a.name === winner) ||
        Number(primary.get(ext)?.has(b.name)) - Number(primary.get(ext)?.has(a.name)) ||
        (TYPE_RANK[a.type] ?? 9) - (TYPE_RANK[b.type] ?? 9) ||
        a.name.localeCompare(b.name),
    );
    if (ranked[0]) chosen.set(ext, ranked[0]);
  }
  return { byExtension: chosen, byFilename, byName };
}

function lookup(): Tables {
  tables ??= build();
  return tables;
}

// go-enry's vendor, documentation and generated patterns, the common ones.
const VENDORED = [
  /(^|\/)(vendor|vendors|node_modules|bower_components|third[-_]?party|3rd[-_]?party|Godeps|extern|external|deps)\//i,
  /(^|\/)(dist|build)\/.*\.(js|css)$/,
  /\.min\.(js|css)$/,
  /(^|\/)jquery([^/]*)\.js$/,
  /(^|\/)bootstrap([^/]*)\.(js|css)$/,
  /(^|\/)gradlew(\.bat)?$/,
  /(^|\/)mvnw(\.cmd)?$/,
];
const DOCUMENTATION = [
  /(^|\/)(docs?|documentation|examples?|samples?|demos?)\//i,
  /(^|\/)(readme|changelog|changes|contributing|copying|license|licence|notice|install|authors|history)(\.[^/]*)?$/i,
];
const GENERATED = [
  /\.pb\.go$/,
  /_pb2\.py$/,
  /\.pb\.(cc|h)$/,
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|go\.sum|Cargo\.lock|composer\.lock|Gemfile\.lock|poetry\.lock)$/,
  /\.designer\.cs$/,
  /\.generated\.\w+$/,
];
/** go-enry's configuration languages (IsConfiguration): never counted. */
const CONFIGURATION = new Set(['XML', 'JSON', 'TOML', 'YAML', 'INI', 'SQL']);

/** Whether a path is skipped outright (dotfiles and dot directories, vendored, generated, documentation). */
function skipped(path: string): boolean {
  if (path.split('/').some((part) => part.startsWith('.'))) return true;
  return [...VENDORED, ...DOCUMENTATION, ...GENERATED].some((re) => re.test(path));
}

/** The language of a file by its name, as linguist names it (grouped: TSX → TypeScript), or null. */
export function languageOf(path: string): LanguageInfo | null {
  const t = lookup();
  const base = path.slice(path.lastIndexOf('/') + 1);
  let lang = t.byFilename.get(base) ?? null;
  if (!lang) {
    const lower = base.toLowerCase();
    // The longest matching extension wins (".d.ts" before ".ts").
    for (let i = lower.indexOf('.'); i >= 0 && !lang; i = lower.indexOf('.', i + 1)) lang = t.byExtension.get(lower.slice(i)) ?? null;
  }
  if (!lang) return null;
  const group = (linguist as Record<string, linguist.Language>)[lang.name]?.group;
  return group ? (t.byName.get(group) ?? lang) : lang;
}

/** The colour of a language by name (GraphQL Language.color), or null. */
export function languageColor(name: string): string | null {
  return lookup().byName.get(name)?.color ?? null;
}

/** A language's linguist name, whatever its case (GitHub's `language:go` means Go); the name itself when unknown. */
export function languageNamed(name: string): string {
  const lower = name.toLowerCase();
  for (const known of lookup().byName.keys()) if (known.toLowerCase() === lower) return known;
  return name;
}

/**
 * Bytes per language for a tree's files (Gitea GetLanguageStats): only programming and markup languages count;
 * when none does, the first other language met is reported alone.
 */
export function languageSizes(files: readonly { path: string; size: number }[]): Map<string, number> {
  const sizes = new Map<string, number>();
  const fallback = { name: '', size: 0 };
  for (const file of files) {
    if (skipped(file.path)) continue;
    const lang = languageOf(file.path);
    if (!lang || CONFIGURATION.has(lang.name)) continue;
    if (lang.type === 'programming' || lang.type === 'markup') {
      sizes.set(lang.name, (sizes.get(lang.name) ?? 0) + file.size);
    } else if (sizes.size === 0 && (fallback.name === '' || fallback.name === lang.name)) {
      fallback.name = lang.name;
      fallback.size += file.size;
    }
  }
  if (sizes.size === 0 && fallback.name) sizes.set(fallback.name, fallback.size);
  return sizes;
}
