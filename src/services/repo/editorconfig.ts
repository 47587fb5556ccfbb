// GET /repos/{o}/{r}/editorconfig/{filepath} (Gitea GetEditorConfig, with editorconfig-core-go v2): the root
// .editorconfig of a commit, its sections matched against the file path, later sections winning, merged into
// the definition Gitea encodes (charset, indent_style, indent_size, end_of_line; the other properties have no
// JSON field there). Read from git at the ref, never from a file system path.
import { NotFoundError } from '../../errors.ts';
import { readObject } from '../../git/readObject.ts';
import { readTreePath } from '../../git/readTreePath.ts';
import { compileGlob } from '../glob.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireCodeRead, resolveCodeRef } from './gitRead.ts';

/** The properties Gitea answers with (Go's `omitempty`: unset ones are absent). */
export interface EditorConfigDefinition {
  charset?: string;
  indent_style?: string;
  indent_size?: string;
  end_of_line?: string;
}

/** One `[glob]` section: its properties by lower-case name. */
interface Section {
  glob: string;
  props: Map<string, string>;
}

// editorconfig-core-go's limits: longer sections, names and values are ignored.
const MAX_SECTION = 4096;
const MAX_NAME = 50;
const MAX_VALUE = 255;
/** Numeric ranges `{n..m}` are expanded into alternatives up to this many values. */
const MAX_RANGE = 1000;

/** The sections of an .editorconfig text (INI: `[glob]`, `key = value`, `#` and `;` comments). */
export function parseEditorConfig(text: string): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      const glob = header[1] as string;
      current = glob.length > MAX_SECTION ? null : { glob, props: new Map() };
      if (current) sections.push(current);
      continue;
    }
    const eq = line.search(/[=:]/);
    if (!current || eq < 0) continue;
    const name = line.slice(0, eq).trim().toLowerCase();
    const value = line
      .slice(eq + 1)
      .replace(/\s[#;].*$/, '')
      .trim();
    if (name.length <= MAX_NAME && value.length <= MAX_VALUE) current.props.set(name, value);
  }
  return sections;
}

/** editorconfig globs in gobwas syntax: `{n..m}` as alternatives, `/**\/` also matching one `/`. */
function toGlob(selector: string): string {
  let glob = selector.startsWith('/') ? selector : selector.includes('/') ? `/${selector}` : `/**/${selector}`;
  glob = glob.replace(/\{(-?\d+)\.\.(-?\d+)\}/g, (whole, a: string, b: string) => {
    const [lo, hi] = [Math.min(Number(a), Number(b)), Math.max(Number(a), Number(b))];
    if (hi - lo >= MAX_RANGE) return whole.replace(/[{}]/g, '\\$&');
    return `{${Array.from({ length: hi - lo + 1 }, (_, i) => String(lo + i)).join(',')}}`;
  });
  return glob.split('/**/').join('{/,/**/}');
}

function matches(selector: string, path: string): boolean {
  try {
    return compileGlob(toGlob(selector), { separators: '/' })(path);
  } catch {
    // A malformed glob matches nothing.
    return false;
  }
}

/** The merged definition for `path` (relative to the root): the last matching section that sets a property wins. */
export function definitionFor(sections: readonly Section[], path: string): EditorConfigDefinition {
  const name = path.startsWith('/') ? path : `/${path}`;
  const merged = new Map<string, string>();
  for (const section of sections) {
    if (!matches(section.glob, name)) continue;
    for (const [k, v] of section.props) merged.set(k, v);
  }
  const def: EditorConfigDefinition = {};
  const charset = merged.get('charset')?.toLowerCase();
  const indentStyle = merged.get('indent_style')?.toLowerCase();
  const indentSize = merged.get('indent_size');
  const endOfLine = merged.get('end_of_line')?.toLowerCase();
  if (charset) def.charset = charset;
  if (indentStyle) def.indent_style = indentStyle;
  if (indentSize) def.indent_size = indentSize;
  if (endOfLine) def.end_of_line = endOfLine;
  return def;
}

/**
 * The EditorConfig definition of `path` at `ref` (the default branch when empty), from the commit's root
 * .editorconfig (Gitea GetEditorConfig): `{}` when no section matches.
 * @throws NotFoundError (repository, code unit, ref, no .editorconfig)
 */
export async function getEditorConfig(cx: ServiceContext, ref: RepoRef, path: string, gitRef?: string): Promise<EditorConfigDefinition> {
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const resolved = await resolveCodeRef(access, gitRef);
  const found = await readTreePath(access.gitDir, resolved.commit, '.editorconfig');
  if (found?.entry?.type !== 'blob')
    throw new NotFoundError('object does not exist [id: , rel_path: .editorconfig]', { path: '.editorconfig' });
  const text = (await readObject(access.gitDir, found.entry.sha)).content.toString('utf8');
  return definitionFor(parseEditorConfig(text), path);
}
