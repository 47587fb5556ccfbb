// Reads an annotated tag object by its sha (git cat-file).
import { InvalidArgumentError } from '../errors.ts';
import { GitCommandError, runGit } from './run.ts';

/** An annotated tag object. */
export interface AnnotatedTagObject {
  sha: string;
  name: string;
  objectSha: string;
  objectType: string;
  tagger: { name: string; email: string; when: string } | null;
  message: string;
  /** The PGP/SSH signature block, when the tag is signed. */
  signature: string;
}

function parseIdent(line: string): { name: string; email: string; when: string } | null {
  const m = /^(.*) <([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(line);
  if (!m) return null;
  const [, name = '', email = '', secs = '0', sign = '+', hh = '00', mm = '00'] = m;
  const offset = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date(Number(secs) * 1000 + offset * 60_000).toISOString().replace(/\.\d{3}Z$/, '');
  return { name, email, when: `${local}${sign}${hh}:${mm}` };
}

/**
 * The annotated tag object `sha` (Gitea GetAnnotatedTag).
 * @throws InvalidArgumentError when `sha` names no tag object (Gitea answers 400)
 */
export async function readTag(gitDir: string, sha: string): Promise<AnnotatedTagObject> {
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) throw new InvalidArgumentError(`object does not exist [id: ${sha}, rel_path: ]`, { sha });
  let full: string;
  let raw: string;
  try {
    full = (await runGit(gitDir, ['rev-parse', '--verify', '--end-of-options', `${sha}^{object}`])).toString('utf8').trim();
    const type = (await runGit(gitDir, ['cat-file', '-t', full])).toString('utf8').trim();
    if (type !== 'tag') throw new InvalidArgumentError(`tag not found: ${sha} is a ${type}`, { sha });
    raw = (await runGit(gitDir, ['cat-file', 'tag', full])).toString('utf8');
  } catch (err) {
    if (err instanceof GitCommandError) throw new InvalidArgumentError(`object does not exist [id: ${sha}, rel_path: ]`, { sha });
    throw err;
  }
  const split = raw.indexOf('\n\n');
  const header = split < 0 ? raw : raw.slice(0, split);
  let body = split < 0 ? '' : raw.slice(split + 2);
  const fields = new Map<string, string>();
  for (const line of header.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) fields.set(line.slice(0, space), line.slice(space + 1));
  }
  let signature = '';
  const sig = body.search(/-----BEGIN (PGP|SSH) SIGNATURE-----/);
  if (sig >= 0) {
    signature = body.slice(sig);
    body = body.slice(0, sig);
  }
  return {
    sha: full,
    name: fields.get('tag') ?? '',
    objectSha: fields.get('object') ?? '',
    objectType: fields.get('type') ?? '',
    tagger: parseIdent(fields.get('tagger') ?? ''),
    message: body,
    signature,
  };
}
