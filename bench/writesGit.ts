// Git fixtures of bench/writes.ts: a working clone whose branches are written by `git fast-import` (one commit
// per pull-request branch, each touching its own file so merges never conflict; push branches of 1 and of 100
// commits), and `git push` of them to a remote: Forgegraph over smart HTTP, or the baseline's bare repository
// directly (git receive-pack with no hooks: the same git work, nothing around it).
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const IDENT = 'bench <bench@example.com> 1700000000 +0000';

export async function gitIn(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd, maxBuffer: 64 << 20, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  return stdout.trim();
}

/** Branches `${prefix}${k}` for k < count, each of `depth` commits on top of `from`, each branch writing its own file. */
function branches(prefix: string, count: number, depth: number, from: string): string {
  let out = '';
  const data = (s: string) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  for (let k = 0; k < count; k++) {
    for (let d = 0; d < depth; d++) {
      out += `commit refs/heads/${prefix}${k}\ncommitter ${IDENT}\n${data(`${prefix}${k} commit ${d}`)}`;
      if (d === 0) out += `from ${from}\n`;
      out += `M 100644 inline ${prefix}/${k}.txt\n${data(`${prefix}${k} line ${d}\n`.repeat(d + 1))}`;
    }
  }
  return out;
}

/** Clones `remote` into `dir` and writes the bench's branches there with one `git fast-import`. */
export async function buildClone(remote: string, dir: string, counts: { pulls: number; push1: number; push100: number }): Promise<void> {
  await exec('git', ['clone', '-q', remote, dir]);
  const main = await gitIn(dir, ['rev-parse', 'HEAD']);
  const stream =
    branches('pr-', counts.pulls, 1, main) + branches('pa-', counts.push1, 1, main) + branches('pb-', counts.push100, 100, main);
  await new Promise<void>((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], { cwd: dir, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`))));
    child.stdin.end(stream);
  });
}

/**
 * `git push <remote> <refspecs>`; `noHooks` runs the (local) receive-pack without hooks. The setting goes to
 * receive-pack itself: git does not pass the pushing command's `-c` settings to a local receive-pack, which would
 * then run the hooks of the repository's own config (the baseline's repository is made by Forgegraph).
 */
export async function push(dir: string, remote: string, refspecs: string[], noHooks = false): Promise<void> {
  await gitIn(dir, [
    'push',
    '-q',
    ...(noHooks ? ['--receive-pack=git -c core.hooksPath=/dev/null receive-pack'] : []),
    remote,
    ...refspecs,
  ]);
}
