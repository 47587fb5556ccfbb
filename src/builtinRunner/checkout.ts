// `uses: actions/checkout@*`, done natively: git init, then a fetch of the task's commit from the instance with the
// task token (Basic auth as `x-access-token`, as actions/checkout sends it), then a checkout.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ProcessOutcome } from './stepProcess.ts';

export interface CheckoutInput {
  /** The step's `with:` (already interpolated). */
  with: Record<string, string>;
  github: Record<string, unknown>;
  /** The task token (secrets.GITHUB_TOKEN). */
  token: string;
  workspace: string;
  git: (args: string[], quiet?: boolean) => Promise<ProcessOutcome>;
  log: (line: string) => void;
}

const SHA = /^[0-9a-f]{40}$/;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Runs the checkout; false when a git command failed (its output is in the log). */
export async function checkout(input: CheckoutInput): Promise<boolean> {
  const { github } = input;
  const server = str(github.server_url).replace(/\/+$/, '');
  const repository = input.with.repository || str(github.repository);
  const ownRepo = repository.toLowerCase() === str(github.repository).toLowerCase();
  const ref = input.with.ref || (ownRepo ? str(github.sha) : '');
  const dir = path.resolve(input.workspace, input.with.path ?? '');
  if (path.relative(input.workspace, dir).startsWith('..')) {
    input.log(`actions/checkout: path "${input.with.path}" is outside the workspace`);
    return false;
  }
  const depth = input.with['fetch-depth'] === undefined || input.with['fetch-depth'] === '' ? 1 : Number(input.with['fetch-depth']);
  const token = input.with.token || input.token;
  const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
  const persist = input.with['persist-credentials'] !== 'false';
  const url = `${server}/${repository}.git`;
  input.log(`Syncing repository: ${repository} (${url})`);
  mkdirSync(dir, { recursive: true });
  const ok = async (args: string[], quiet = false) => (await input.git(['-C', dir, ...args], quiet)).code === 0;
  const auth = persist ? [] : ['-c', `http.${server}/.extraheader=${header}`];
  const fetchArgs = ['fetch', '--no-tags', '--prune', ...(depth > 0 ? [`--depth=${depth}`] : []), 'origin'];
  const steps = async (): Promise<boolean> => {
    if (!(await ok(['init', '-q']))) return false;
    await ok(['remote', 'remove', 'origin'], true);
    if (!(await ok(['remote', 'add', 'origin', url]))) return false;
    if (!(await ok(['config', '--local', 'gc.auto', '0']))) return false;
    if (persist && !(await ok(['config', '--local', `http.${server}/.extraheader`, header]))) return false;
    if (SHA.test(ref)) {
      // By commit; servers that refuse unadvertised commits get the run's ref instead.
      const fetched = (await ok([...auth, ...fetchArgs, ref])) || (await ok([...auth, ...fetchArgs, str(github.ref)]));
      return fetched && (await ok(['checkout', '-q', '--force', '--detach', ref]));
    }
    const wanted = ref || 'HEAD';
    if (!(await ok([...auth, ...fetchArgs, wanted]))) return false;
    const branch = wanted.replace(/^refs\/heads\//, '');
    return wanted.startsWith('refs/tags/') || wanted === 'HEAD'
      ? ok(['checkout', '-q', '--force', '--detach', 'FETCH_HEAD'])
      : ok(['checkout', '-q', '--force', '-B', branch, 'FETCH_HEAD']);
  };
  if (!(await steps())) return false;
  return ok(['log', '-1', '--format=HEAD is now at %h %s']);
}
