import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultWorkDir, runnerFilePath, writeRunnerFile } from '../../src/builtinRunner/runnerFile.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture } from '../githttp/gitClient.ts';
import { RunnerProcess, RunnerWorld } from './builtinRunnerProcess.ts';

/** Issue 31 (4): the built-in runner's state file (it holds the runner's token) stays out of the working tree. */
describe("the runner's state file location", () => {
  const home = homedir();

  it('--config, else RUNNER_FILE, else $XDG_CONFIG_HOME/forgegraph/runner.json, else ~/.config/forgegraph/runner.json', () => {
    expect(runnerFilePath(undefined, {})).toBe(path.join(home, '.config/forgegraph/runner.json'));
    expect(runnerFilePath(undefined, { XDG_CONFIG_HOME: '/etc/xdg-home' })).toBe('/etc/xdg-home/forgegraph/runner.json');
    // The XDG spec: a relative value is invalid and ignored.
    expect(runnerFilePath(undefined, { XDG_CONFIG_HOME: 'relative' })).toBe(path.join(home, '.config/forgegraph/runner.json'));
    expect(runnerFilePath(undefined, { XDG_CONFIG_HOME: '/x', RUNNER_FILE: '/srv/runner/state.json' })).toBe('/srv/runner/state.json');
    expect(runnerFilePath('/opt/r.json', { RUNNER_FILE: '/srv/runner/state.json' })).toBe('/opt/r.json');
    expect(runnerFilePath('.runner', {})).toBe(path.resolve('.runner'));
    expect(defaultWorkDir('u-1', {})).toBe(path.join(home, '.cache/forgegraph/runner-work/u-1'));
    expect(defaultWorkDir('u-1', { XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/forgegraph/runner-work/u-1');
  });

  it('is written mode 0600 in a 0700 directory, also over an older file readable by others', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fg-runnerfile-'));
    try {
      const file = path.join(dir, 'conf/forgegraph/runner.json');
      const runner = { id: 1, uuid: 'u', name: 'n', token: 't', address: 'http://x', labels: [] };
      writeRunnerFile(file, runner);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      const old = path.join(dir, 'old.json');
      writeFileSync(old, '{}', { mode: 0o644 });
      writeRunnerFile(old, runner);
      expect(statSync(old).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(old, 'utf8'))).toMatchObject({ uuid: 'u', token: 't' });
      expect(readdirSync(dir).sort()).toEqual(['conf', 'old.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(PROVIDERS)('forgegraph runner run from inside a git checkout (%s)', (provider) => {
  let w: RunnerWorld;
  let checkout: string;
  const defaultFile = () => path.join(w.git.home, '.config/forgegraph/runner.json');
  const flagged = () => path.join(w.git.home, 'conf/runner.json');
  /** `git status` of the checkout, ignored files included: empty while nothing was written into it. */
  const status = () => w.git.ok(['status', '--porcelain', '--ignored'], { cwd: checkout });

  beforeAll(async () => {
    w = await RunnerWorld.start(provider);
    checkout = w.git.dir('checkout');
    await w.git.ok(['init', '-q', checkout]);
    await w.git.commit(checkout, 'README', 'a project\n', 'init');
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('register writes no file into the working directory but ~/.config/forgegraph/runner.json, mode 0600', async () => {
    const output = await w.register('state-default', 'states', [], { cwd: checkout });
    expect(output).toContain(`wrote ${defaultFile()}`);
    expect(statSync(defaultFile()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(defaultFile(), 'utf8'))).toMatchObject({ name: 'state-default', labels: ['states'] });
    expect(readdirSync(checkout).sort()).toEqual(['.git', 'README']);
    expect(await status()).toBe('');
  }, 60_000);

  it('--config (relative to the working directory) says where the file goes, before RUNNER_FILE', async () => {
    const other = path.join(w.git.dir('srv'), 'runner/other.json');
    await w.register('state-flag', 'states', ['--config', '../conf/runner.json'], { cwd: checkout, env: { RUNNER_FILE: other } });
    expect(JSON.parse(readFileSync(flagged(), 'utf8'))).toMatchObject({ name: 'state-flag' });
    expect(statSync(flagged()).mode & 0o777).toBe(0o600);
    expect(() => statSync(other)).toThrow();
    expect(await status()).toBe('');
  }, 90_000);

  it('daemon with the file RUNNER_FILE names logs results in words (success, failure) and leaves the checkout clean', async () => {
    const root = await w.t.db.user.findFirstOrThrow({ where: { name: 'root' } });
    await createRepoFixture(w.t, root, 'states');
    const workflow = `on: [push]\njobs:\n  good:\n    runs-on: states\n    steps:\n      - run: echo fine\n  bad:\n    runs-on: states\n    steps:\n      - run: exit 1\n`;
    await w.push('states', { '.gitea/workflows/states.yml': workflow });
    const daemon = new RunnerProcess(['daemon', '--fetch-interval', '0.5'], { ...w.env(), RUNNER_FILE: flagged() }, checkout);
    w.runners.push(daemon);
    await w.until(async () => {
      const runs = (await w.get<{ workflow_runs: Array<{ status: string }> }>('/api/v1/repos/root/states/actions/runs')).workflow_runs;
      return runs.length === 1 && runs[0]?.status === 'completed';
    }, 'the run to complete');
    await daemon.stop();
    const output = daemon.output.join('');
    expect(output).toContain(`(${flagged()}) declared`);
    expect(output).toMatch(/task \d+ finished: success\n/);
    expect(output).toMatch(/task \d+ finished: failure\n/);
    expect(output).not.toMatch(/finished: result/);
    const { uuid } = JSON.parse(readFileSync(flagged(), 'utf8')) as { uuid: string };
    expect(output).toContain(`workspaces in ${path.join(w.git.home, '.cache/forgegraph/runner-work', uuid)}`);
    expect(readdirSync(checkout).sort()).toEqual(['.git', 'README']);
    expect(await status()).toBe('');
  }, 240_000);
});
