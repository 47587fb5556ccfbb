import { NotFoundError } from '../errors.ts';
import { runGitOrNotFound } from './run.ts';

/** The parts of a commit object a rebase keeps or rewrites (header lines as raw bytes: any encoding survives). */
export interface RawCommit {
  tree: string;
  parents: string[];
  authorLine: Buffer;
  encodingLine: Buffer | null;
  message: Buffer;
}

function parseRawCommit(body: Buffer): RawCommit {
  const split = body.indexOf('\n\n');
  const headerEnd = split < 0 ? body.length : split;
  const commit: RawCommit = {
    tree: '',
    parents: [],
    authorLine: Buffer.alloc(0),
    encodingLine: null,
    message: split < 0 ? Buffer.alloc(0) : body.subarray(split + 2),
  };
  let pos = 0;
  while (pos < headerEnd) {
    let nl = body.indexOf('\n', pos);
    if (nl < 0 || nl > headerEnd) nl = headerEnd;
    const line = body.subarray(pos, nl);
    const key = line.toString('latin1', 0, Math.max(0, line.indexOf(' ')));
    if (key === 'tree') commit.tree = line.toString('latin1', 5);
    else if (key === 'parent') commit.parents.push(line.toString('latin1', 7));
    else if (key === 'author') commit.authorLine = line;
    else if (key === 'encoding') commit.encodingLine = line;
    pos = nl + 1;
  }
  return commit;
}

/** Reads commit objects (`cat-file --batch`). @throws NotFoundError */
export async function readRawCommits(gitDir: string, shas: readonly string[]): Promise<Map<string, RawCommit>> {
  const out = await runGitOrNotFound(gitDir, ['cat-file', '--batch'], 'repository does not exist', {
    input: shas.map((s) => `${s}\n`).join(''),
  });
  const commits = new Map<string, RawCommit>();
  let pos = 0;
  while (pos < out.length) {
    const nl = out.indexOf('\n', pos);
    const [sha = '', type = '', size = '0'] = out.toString('latin1', pos, nl).split(' ');
    if (type !== 'commit') throw new NotFoundError(`commit does not exist [${sha}]`, { sha });
    const start = nl + 1;
    const end = start + Number(size);
    commits.set(sha, parseRawCommit(out.subarray(start, end)));
    pos = end + 1;
  }
  return commits;
}
