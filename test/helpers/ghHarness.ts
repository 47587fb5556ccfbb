// GitHub's own CLI (Debian's `gh`) against a running forge, unchanged (issue #32): GH_HOST names the server as a
// GitHub Enterprise host behind a local TLS terminator, GH_ENTERPRISE_TOKEN is one of our tokens. One harness per
// test file: the app, the terminator, alice with a token and alice/demo, and helpers to run gh and check through /api/v1.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { basic, startTestApp, type TestApp } from './app.ts';
import { createRepo } from './fixtures.ts';
import { freePort } from './serverProcess.ts';
import { startTlsTerminator, type TlsTerminator } from './tlsTerminator.ts';

export const run = promisify(execFile);

/** Debian's gh version line (apt-get install gh; .ci/run installs it), or null when it is not installed. */
export const GH = (() => {
  try {
    return (
      execFileSync('gh', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .split('\n')[0] ?? ''
    );
  } catch {
    return null;
  }
})();
if (!GH) console.warn('gh test skipped: gh is not installed (apt-get install gh; .ci/run installs it)');

export interface GhHarness {
  t: TestApp;
  tls: TlsTerminator;
  home: string;
  host: string;
  /** alice's token (scope all). */
  token: string;
  /** `<host>/alice/demo`, for `-R`. */
  repo: string;
  /** The environment gh runs with for a token. */
  env(asToken: string): NodeJS.ProcessEnv;
  /** Runs gh as alice; resolves with its output, rejects with its error output when gh fails. */
  gh(...args: string[]): Promise<string>;
  /** Runs gh with another token, in `cwd`. */
  ghAs(asToken: string, cwd: string, ...args: string[]): Promise<string>;
  /** GET /api/v1…, as alice, expecting 200. */
  v1(url: string): Promise<Record<string, unknown> & Array<Record<string, unknown>>>;
  /** A new branch of alice/demo with one added file (through /api/v1); its commit sha. */
  branchWithFile(branch: string, text?: string): Promise<string>;
  /** `gh pr create` from `branch` into main; the pull request's number. */
  ghPull(branch: string, title: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the app behind a TLS terminator, with alice, her token and alice/demo (auto-initialized, "a demo"). */
export async function startGhHarness(provider: DbProvider): Promise<GhHarness> {
  const home = mkdtempSync(path.join(tmpdir(), 'forgegraph-gh-'));
  let appPort = 0;
  // gh matches a clone's git remotes to GH_HOST by host name without the port, so `pr checkout` needs the
  // standard port: 443 on a loopback address of this run's own (root may bind it); elsewhere any free port.
  const loopback = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const tls = await startTlsTerminator(loopback, 443, () => appPort).catch(async () =>
    startTlsTerminator('127.0.0.1', await freePort(), () => appPort),
  );
  const host = tls.host;
  const t = await startTestApp(provider, { ROOT_URL: `https://${host}/` });
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.server.address();
  appPort = typeof address === 'object' && address ? address.port : 0;
  const alice = await t.createUser('alice');
  const token = await t.createToken('alice', ['all']);
  await createRepo(t, alice, 'demo', { autoInit: true, description: 'a demo' });

  const env = (asToken: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GH_HOST: host,
    GH_ENTERPRISE_TOKEN: asToken,
    GH_CONFIG_DIR: path.join(home, 'gh'),
    SSL_CERT_FILE: tls.certFile,
    GIT_SSL_CAINFO: tls.certFile,
    // gh hands git its own credential helper for the host; git commits need an identity.
    GIT_AUTHOR_NAME: 'gh test',
    GIT_AUTHOR_EMAIL: 'gh@example.com',
    GIT_COMMITTER_NAME: 'gh test',
    GIT_COMMITTER_EMAIL: 'gh@example.com',
    GH_PROMPT_DISABLED: '1',
    GH_NO_UPDATE_NOTIFIER: '1',
    GH_PAGER: 'cat',
    NO_COLOR: '1',
  });
  async function ghAs(asToken: string, cwd: string, ...args: string[]): Promise<string> {
    try {
      return (await run('gh', args, { cwd, env: env(asToken) })).stdout;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`gh ${args.join(' ')} failed: ${e.stderr || e.message}\n${e.stdout ?? ''}`, { cause: err });
    }
  }
  const gh = (...args: string[]): Promise<string> => ghAs(token, home, ...args);
  const repo = `${host}/alice/demo`;
  return {
    t,
    tls,
    home,
    host,
    token,
    repo,
    env,
    gh,
    ghAs,
    async v1(url) {
      const res = await t.request('GET', `/api/v1${url}`, { headers: basic('alice') });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    async branchWithFile(branch, text = `${branch}\n`) {
      const file = await t.request('POST', `/api/v1/repos/alice/demo/contents/${branch}.txt`, {
        headers: basic('alice'),
        body: { content: Buffer.from(text).toString('base64'), message: `Add ${branch}`, new_branch: branch },
      });
      expect(file.statusCode, file.body).toBe(201);
      return (file.json() as { commit: { sha: string } }).commit.sha;
    },
    async ghPull(branch, title) {
      return (await gh('pr', 'create', '--head', branch, '--base', 'main', '--title', title, '--body', 'x', '-R', repo))
        .trim()
        .split('/')
        .pop()!;
    },
    async close() {
      await t.close();
      await tls.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
