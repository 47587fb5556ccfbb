// A commit's signature as Gitea reads it (modules/git CommitFromReader): the `gpgsig` header (continuation lines
// start with a space) is the signature, and the commit object without that header is the signed payload.
import { NotFoundError } from '../errors.ts';
import { runGitOrNotFound } from './run.ts';

/** The signature of a commit and who committed it. */
export interface CommitSignature {
  sha: string;
  /** The armored signature, or null for an unsigned commit. */
  signature: string | null;
  /** The signed bytes: the commit object without its signature header. */
  payload: Buffer;
  committerName: string;
  committerEmail: string;
}

const NL = Buffer.from('\n');
const SIG_HEADERS = new Set(['gpgsig', 'gpgsig-sha256']);

/** Splits a commit object into its signature and payload. */
export function parseCommitSignature(sha: string, body: Buffer): CommitSignature {
  const split = body.indexOf('\n\n');
  const headerEnd = split < 0 ? body.length : split;
  const kept: Buffer[] = [];
  const sig: string[] = [];
  let inSig = false;
  let committer = '';
  let pos = 0;
  while (pos < headerEnd) {
    let nl = body.indexOf('\n', pos);
    if (nl < 0 || nl > headerEnd) nl = headerEnd;
    const line = body.subarray(pos, nl);
    const text = line.toString('utf8');
    if (text.startsWith(' ') && inSig) {
      sig.push(text.slice(1));
    } else {
      const key = text.slice(0, Math.max(0, text.indexOf(' ')));
      inSig = SIG_HEADERS.has(key) && sig.length === 0;
      if (inSig) sig.push(text.slice(key.length + 1));
      else kept.push(line, NL);
      if (key === 'committer') committer = text.slice('committer '.length);
    }
    pos = nl + 1;
  }
  if (split >= 0) kept.push(body.subarray(headerEnd + 1));
  const m = /^(.*?) <([^>]*)>/.exec(committer);
  return {
    sha,
    signature: sig.length ? `${sig.join('\n')}\n` : null,
    payload: Buffer.concat(kept),
    committerName: m?.[1] ?? '',
    committerEmail: m?.[2] ?? '',
  };
}

/**
 * Reads objects of one type (`cat-file --batch`; `env` may add a push's quarantine) and parses each with `parse`.
 * @throws NotFoundError when one is missing or of another type
 */
export async function readSignedObjects<T>(
  gitDir: string,
  shas: readonly string[],
  type: 'commit' | 'tag',
  parse: (sha: string, body: Buffer) => T,
  env: Record<string, string> = {},
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  if (!shas.length) return out;
  const raw = await runGitOrNotFound(gitDir, ['cat-file', '--batch'], 'repository does not exist', {
    input: shas.map((s) => `${s}\n`).join(''),
    env,
  });
  let pos = 0;
  while (pos < raw.length) {
    const nl = raw.indexOf('\n', pos);
    const [sha = '', found = '', size = '0'] = raw.toString('latin1', pos, nl).split(' ');
    if (found !== type) throw new NotFoundError(`${type} does not exist [${sha}]`, { sha });
    const start = nl + 1;
    const end = start + Number(size);
    out.set(sha, parse(sha, raw.subarray(start, end)));
    pos = end + 1;
  }
  return out;
}

/** Reads the signatures of commits (`cat-file --batch`; `env` may add a push's quarantine). @throws NotFoundError */
export function readCommitSignatures(
  gitDir: string,
  shas: readonly string[],
  env: Record<string, string> = {},
): Promise<Map<string, CommitSignature>> {
  return readSignedObjects(gitDir, shas, 'commit', parseCommitSignature, env);
}
