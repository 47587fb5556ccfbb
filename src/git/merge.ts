import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConflictError, InvalidArgumentError, NotFoundError } from '../errors.ts';
import { assertRevision, mergeBase, runGitOrNotFound } from './compare.ts';
import { isSafeRefName } from './resolveRef.ts';
import { GitCommandError, gitEnv, runGit } from './run.ts';

/** Who made a commit and when; `tz` is git's `+HHMM` offset (default `+0000`). */
export interface GitIdentity {
  name: string;
  email: string;
  when: Date;
  tz?: string;
}

/** Gitea's merge styles (`Do` of POST …/pulls/{index}/merge; Gitea's `manually-merged` involves no git). */
export type MergeStyle = 'merge' | 'rebase' | 'rebase-merge' | 'squash' | 'fast-forward-only';

/** What `createMerge` needs. Commits are given by sha (or ref name); nothing is updated. */
export interface MergeInput {
  style: MergeStyle;
  /** The base branch tip. */
  base: string;
  /** The pull request head. */
  head: string;
  /** Author of the merge or squash commit (Gitea: the merger, or the poster for squash); unused by `rebase`. */
  author: GitIdentity;
  /** Committer of every new commit, rebased ones included (Gitea: the merger). */
  committer: GitIdentity;
  /** Message of the merge or squash commit; unused by `rebase` (commits keep theirs). */
  message: string;
}

/** Why a merge did not happen. `commit` names the head commit whose replay conflicted (rebase styles). */
export type MergeRefusal =
  | { status: 'conflict'; files: string[]; commit: string | null }
  | { status: 'not-fast-forward' }
  | { status: 'already-merged' }
  | { status: 'unrelated-histories' };

/** The commit the base branch should move to, or why there is none. */
export type MergeOutcome = { status: 'merged'; sha: string; mergeBase: string } | MergeRefusal;

/** The outcome of a trial merge: its tree, or the conflicted paths. */
export type MergeCheck = { status: 'clean'; tree: string } | { status: 'conflict'; files: string[] } | { status: 'unrelated-histories' };

/** A compare-and-swap ref update: done, or lost to a concurrent update (the ref is at `current`, null when absent). */
export type RefUpdate = { status: 'updated' } | { status: 'stale'; current: string | null };

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** The identity of the throw-away commits the rebase uses as merge-tree's "ours" (constant, so they dedupe). */
const STAND_IN_IDENT = 'Forgegraph <forgegraph@localhost> 0 +0000';

function assertSha(sha: string, what: string): void {
  if (!SHA.test(sha)) throw new InvalidArgumentError(`${what} must be a full lower-case object id`, { sha });
}

function assertFullRef(ref: string): void {
  if (!ref.startsWith('refs/') || !isSafeRefName(ref)) throw new InvalidArgumentError(`invalid ref name: ${JSON.stringify(ref)}`, { ref });
}

/** git's environment for an author or committer. @throws InvalidArgumentError for names git would mangle */
function identityEnv(kind: 'AUTHOR' | 'COMMITTER', who: GitIdentity): Record<string, string> {
  const tz = who.tz ?? '+0000';
  const seconds = Math.floor(who.when.getTime() / 1000);
  if (!who.name.trim() || /[<>\n\0]/.test(who.name) || /[<>\n\0]/.test(who.email) || !/^[+-]\d{4}$/.test(tz) || !Number.isFinite(seconds)) {
    throw new InvalidArgumentError(`invalid ${kind.toLowerCase()} identity`, { name: who.name, email: who.email, tz });
  }
  return { [`GIT_${kind}_NAME`]: who.name, [`GIT_${kind}_EMAIL`]: who.email, [`GIT_${kind}_DATE`]: `@${seconds} ${tz}` };
}

/** Runs git and resolves with its exit code and output whatever the code (merge-tree reports conflicts with 1). */
function runGitStatus(gitDir: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], {
      env: gitEnv({ GIT_LITERAL_PATHSPECS: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `git merge-tree --write-tree` of two commits (their merge base found by git); writes objects, no ref. */
async function mergeTree(gitDir: string, ours: string, theirs: string): Promise<MergeCheck> {
  const r = await runGitStatus(gitDir, [
    'merge-tree',
    '--write-tree',
    '--name-only',
    '-z',
    '--no-messages',
    '--end-of-options',
    ours,
    theirs,
  ]);
  const [tree = '', ...rest] = r.stdout.split('\0');
  // An unknown commit also exits 1, with nothing on stdout.
  if ((r.code === 0 || r.code === 1) && SHA.test(tree)) {
    if (r.code === 0) return { status: 'clean', tree };
    const end = rest.indexOf('');
    return { status: 'conflict', files: [...new Set(end < 0 ? rest : rest.slice(0, end))] };
  }
  await resolveCommits(gitDir, [ours, theirs]);
  if ((await mergeBase(gitDir, ours, theirs)) === null) return { status: 'unrelated-histories' };
  throw new GitCommandError(['merge-tree'], r.code, r.stderr);
}

/**
 * Whether `head` merges into `base` without conflicts, and if not which paths conflict: `git merge-tree
 * --write-tree` (git ≥ 2.38), in the bare repository, without a work tree or index. Handles criss-cross
 * histories. It writes the merged objects (loose, collected by gc) but touches no ref.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function checkMergeable(gitDir: string, base: string, head: string): Promise<MergeCheck> {
  assertRevision(base);
  assertRevision(head);
  return mergeTree(gitDir, base, head);
}

/** Resolves revisions to full commit ids in one `cat-file --batch-check`. @throws NotFoundError */
async function resolveCommits(gitDir: string, revs: readonly string[]): Promise<string[]> {
  const out = await runGitOrNotFound(gitDir, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], 'repository does not exist', {
    input: revs.map((r) => `${r}^{commit}\n`).join(''),
  });
  const lines = out.toString('utf8').split('\n');
  return revs.map((rev, i) => {
    const [sha = '', type = ''] = (lines[i] ?? '').split(' ');
    if (type !== 'commit') throw new NotFoundError(`commit does not exist [${rev}]`, { rev });
    return sha;
  });
}

/** `git commit-tree`: a commit of `tree` with these parents; returns its id. */
async function commitTree(
  gitDir: string,
  tree: string,
  parents: readonly string[],
  message: string,
  env: Record<string, string>,
): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return (await runGit(gitDir, args, { input: message, env })).toString('utf8').trim();
}

/**
 * Computes the commit a pull request merge moves the base branch to, in the bare repository and without a
 * work tree, in Gitea's styles:
 * - `merge`: a merge commit (parents base, head; always, like `--no-ff`) of the merge-tree result;
 * - `squash`: one commit whose only parent is base and whose tree is the merge result;
 * - `rebase`: head's commits replayed onto base (see `rebaseOnto`); base then fast-forwards to the last one;
 * - `rebase-merge`: the rebase, then a merge commit of base and the rebased head;
 * - `fast-forward-only`: head itself, refused unless base is an ancestor of head.
 * Refusals (conflicts with the conflicted paths, not fast-forward, already merged, unrelated histories) are
 * results, not exceptions. Nothing is updated: move the branch with `updateRefCAS(base…)`.
 * @throws InvalidArgumentError for malformed revisions or identities; NotFoundError for unknown commits
 */
export async function createMerge(gitDir: string, input: MergeInput): Promise<MergeOutcome> {
  assertRevision(input.base);
  assertRevision(input.head);
  const env = { ...identityEnv('AUTHOR', input.author), ...identityEnv('COMMITTER', input.committer) };
  const message = input.message.endsWith('\n') || !input.message ? input.message : `${input.message}\n`;
  const [base = '', head = ''] = await resolveCommits(gitDir, [input.base, input.head]);
  const mb = await mergeBase(gitDir, base, head);
  if (mb === null) return { status: 'unrelated-histories' };
  if (mb === head) return { status: 'already-merged' };
  const merged = (sha: string): MergeOutcome => ({ status: 'merged', sha, mergeBase: mb });
  switch (input.style) {
    case 'fast-forward-only':
      return mb === base ? merged(head) : { status: 'not-fast-forward' };
    case 'merge':
    case 'squash': {
      const m = await mergeTree(gitDir, base, head);
      if (m.status === 'conflict') return { status: 'conflict', files: m.files, commit: null };
      if (m.status !== 'clean') return m;
      return merged(await commitTree(gitDir, m.tree, input.style === 'merge' ? [base, head] : [base], message, env));
    }
    case 'rebase':
    case 'rebase-merge': {
      const r = await rebaseOnto(gitDir, base, head, input.committer);
      if (r.status !== 'rebased') return r;
      if (r.sha === base) return { status: 'already-merged' };
      if (input.style === 'rebase') return merged(r.sha);
      return merged(await commitTree(gitDir, r.tree, [base, r.sha], message, env));
    }
  }
}

/** The parts of a commit object a rebase keeps or rewrites (header lines as raw bytes: any encoding survives). */
interface RawCommit {
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
async function readRawCommits(gitDir: string, shas: readonly string[]): Promise<Map<string, RawCommit>> {
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

/** Writes commit objects; `write` resolves with the id git gave the object once it is in the repository. */
interface CommitWriter {
  write(body: Buffer): Promise<string>;
  close(): Promise<void>;
}

/**
 * One `git hash-object -w -t commit --stdin-paths` kept open for a whole rebase: each object goes through a
 * temporary file and a line on stdin, and git answers (flushed per path on a pipe) once it is written, so a
 * commit costs a pipe round trip instead of a process. A failed git fails every pending and later write.
 */
async function openCommitWriter(gitDir: string): Promise<CommitWriter> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-rebase-'));
  const child = spawn('git', ['--git-dir', gitDir, 'hash-object', '-w', '-t', 'commit', '--stdin-paths'], {
    env: gitEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pending: Array<(answer: string | Error) => void> = [];
  let failure: Error | null = null;
  let stdout = '';
  let stderr = '';
  const fail = (err: Error) => {
    failure ??= err;
    for (const answer of pending.splice(0)) answer(failure);
  };
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.on('error', fail);
  child.on('close', (code) => fail(new GitCommandError(['hash-object'], code, stderr)));
  child.stdin.on('error', fail);
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (let nl = stdout.indexOf('\n'); nl >= 0; nl = stdout.indexOf('\n')) {
      pending.shift()?.(stdout.slice(0, nl));
      stdout = stdout.slice(nl + 1);
    }
  });
  let count = 0;
  return {
    async write(body) {
      const file = path.join(dir, String(count++));
      await writeFile(file, body);
      const answer = await new Promise<string | Error>((resolve) => {
        if (failure) return resolve(failure);
        pending.push(resolve);
        child.stdin.write(`${file}\n`);
      });
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async close() {
      child.stdin.end();
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

type RebaseResult =
  { status: 'rebased'; sha: string; tree: string } | Exclude<MergeRefusal, { status: 'not-fast-forward' | 'already-merged' }>;

/**
 * Replays head's commits onto `onto` as `git rebase` does, without a work tree: the commits of `onto...head`
 * on head's side, oldest first, minus merges and minus commits whose change `onto` already has (patch-id,
 * `--cherry-pick`). Leading commits already on `onto` are kept as they are (no rewrite when head is up to
 * date); a commit that becomes empty is dropped. Each replay is a three-way merge whose base is the commit's
 * parent: git 2.39 has no `merge-tree --merge-base` (2.40), so "ours" is a stand-in commit with the current
 * tree and that parent, making the parent the only merge base. Rebased commits keep their author line, message
 * and encoding byte for byte (a signature is dropped, as git does); the committer is `committer`. Commits are
 * written through one long-lived `hash-object` (see openCommitWriter), so each replay spawns only merge-tree.
 */
async function rebaseOnto(gitDir: string, onto: string, head: string, committer: GitIdentity): Promise<RebaseResult> {
  const listed = await runGit(gitDir, [
    'rev-list',
    '--reverse',
    '--topo-order',
    '--right-only',
    '--cherry-pick',
    '--no-merges',
    '--end-of-options',
    `${onto}...${head}`,
    '--',
  ]);
  const picks = listed.toString('utf8').split('\n').filter(Boolean);
  const raw = await readRawCommits(gitDir, [onto, ...picks]);
  const parentsToRead = picks.map((p) => raw.get(p)?.parents[0]).filter((p): p is string => p !== undefined && !raw.has(p));
  for (const [sha, commit] of await readRawCommits(gitDir, [...new Set(parentsToRead)])) raw.set(sha, commit);
  const ident = (await runGit(gitDir, ['var', 'GIT_COMMITTER_IDENT'], { env: identityEnv('COMMITTER', committer) }))
    .toString('utf8')
    .trim();

  let tip = onto;
  let tipTree = raw.get(onto)?.tree ?? '';
  let writer: CommitWriter | null = null;
  try {
    for (const sha of picks) {
      const commit = raw.get(sha);
      const parent = commit?.parents[0];
      if (!commit) throw new NotFoundError(`commit does not exist [${sha}]`, { sha });
      if (parent === undefined) return { status: 'unrelated-histories' };
      if (parent === tip) {
        tip = sha;
        tipTree = commit.tree;
        continue;
      }
      writer ??= await openCommitWriter(gitDir);
      const ours = await writer.write(
        Buffer.from(`tree ${tipTree}\nparent ${parent}\nauthor ${STAND_IN_IDENT}\ncommitter ${STAND_IN_IDENT}\n\nrebase stand-in\n`),
      );
      const m = await mergeTree(gitDir, ours, sha);
      if (m.status === 'conflict') return { status: 'conflict', files: m.files, commit: sha };
      if (m.status !== 'clean') return m;
      if (m.tree === tipTree && commit.tree !== raw.get(parent)?.tree) continue;
      tip = await writer.write(
        Buffer.concat([
          Buffer.from(`tree ${m.tree}\nparent ${tip}\n`),
          commit.authorLine,
          Buffer.from(`\ncommitter ${ident}\n`),
          ...(commit.encodingLine ? [commit.encodingLine, Buffer.from('\n')] : []),
          Buffer.from('\n'),
          commit.message,
        ]),
      );
      tipTree = m.tree;
    }
  } finally {
    await writer?.close();
  }
  return { status: 'rebased', sha: tip, tree: tipTree };
}

/**
 * The values (not peeled) of several full ref names in one `git for-each-ref`; refs that do not exist are
 * absent from the map.
 */
export async function readRefs(gitDir: string, refs: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(refs);
  const values = new Map<string, string>();
  if (!wanted.size) return values;
  const out = (await runGit(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', '--end-of-options', ...wanted])).toString('utf8');
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    const name = line.slice(space + 1);
    if (space > 0 && wanted.has(name)) values.set(name, line.slice(0, space));
  }
  return values;
}

/** The value of one ref (not peeled), or null when it does not exist. */
async function readRef(gitDir: string, ref: string): Promise<string | null> {
  return (await readRefs(gitDir, [ref])).get(ref) ?? null;
}

async function hasCommit(gitDir: string, sha: string): Promise<boolean> {
  return (await runGitStatus(gitDir, ['cat-file', '-e', `${sha}^{commit}`])).code === 0;
}

/**
 * Moves `ref` to `newSha` only if it still points at `expectedOldSha` (null: only if it does not exist), with
 * `git update-ref <ref> <new> <old>` under git's ref lock, so a push landing between computing a merge and
 * storing it is never overwritten. A lost race is a `stale` result carrying the ref's current value: retry
 * from there, or answer 409. Runs no hooks.
 * @throws InvalidArgumentError; NotFoundError when `newSha` is not in the repository; ConflictError when the
 * ref is as expected but cannot be locked (held by another writer for over a second)
 */
export async function updateRefCAS(gitDir: string, ref: string, newSha: string, expectedOldSha: string | null): Promise<RefUpdate> {
  assertFullRef(ref);
  assertSha(newSha, 'new value');
  if (expectedOldSha !== null) assertSha(expectedOldSha, 'expected value');
  try {
    await runGit(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', ref, newSha, expectedOldSha ?? '']);
    return { status: 'updated' };
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    const current = await readRef(gitDir, ref);
    if (current !== expectedOldSha) return { status: 'stale', current };
    if (!(await hasCommit(gitDir, newSha))) throw new NotFoundError(`commit does not exist [${newSha}]`, { sha: newSha });
    throw new ConflictError(`cannot update ${ref}`, { ref, stderr: err.stderr.trim() });
  }
}

/**
 * Points `ref` (a full name under refs/) at `sha`, creating or overwriting it (`git update-ref`).
 * @throws InvalidArgumentError; NotFoundError when `sha` is not in the repository
 */
export async function setRef(gitDir: string, ref: string, sha: string): Promise<void> {
  assertFullRef(ref);
  assertSha(sha, 'value');
  await runGitOrNotFound(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', ref, sha], `object does not exist [${sha}]`);
}

/** Deletes `ref` (a full name under refs/); deleting a missing ref is not an error. @throws InvalidArgumentError */
export async function deleteRef(gitDir: string, ref: string): Promise<void> {
  assertFullRef(ref);
  await runGit(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', '-d', ref]);
}

/**
 * Deletes `ref` only if it still points at `expectedOldSha` (`git update-ref -d <ref> <old>` under git's ref
 * lock): false when it moved or is gone, so commits pushed meanwhile are never lost.
 * @throws InvalidArgumentError
 */
export async function deleteRefCAS(gitDir: string, ref: string, expectedOldSha: string): Promise<boolean> {
  assertFullRef(ref);
  assertSha(expectedOldSha, 'expected value');
  try {
    await runGit(gitDir, ['-c', 'core.filesRefLockTimeout=1000', 'update-ref', '-d', ref, expectedOldSha]);
    return true;
  } catch (err) {
    if (err instanceof GitCommandError) return false;
    throw err;
  }
}

/**
 * Makes commit `sha` of `sourceGitDir` (a fork) available in `targetGitDir` under `ref` (e.g.
 * `refs/pull/{index}/head`): a local `git fetch` of that one commit, which packs only the objects the target
 * lacks (protocol v2 lets a fetch ask for any object id). When the target already has the commit (the same
 * repository, or fetched before) only the ref is written.
 * @throws InvalidArgumentError; NotFoundError when the source does not have the commit
 */
export async function fetchIntoRef(targetGitDir: string, sourceGitDir: string, sha: string, ref: string): Promise<void> {
  assertSha(sha, 'commit');
  assertFullRef(ref);
  if (await hasCommit(targetGitDir, sha)) return setRef(targetGitDir, ref, sha);
  const args = [
    '-c',
    'protocol.version=2',
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-write-fetch-head',
    '--no-auto-gc',
    '--no-recurse-submodules',
    path.resolve(sourceGitDir),
    `+${sha}:${ref}`,
  ];
  try {
    await runGit(targetGitDir, args);
  } catch (err) {
    if (err instanceof GitCommandError && !(await hasCommit(sourceGitDir, sha)))
      throw new NotFoundError(`commit does not exist [${sha}]`, { sha });
    throw err;
  }
}
