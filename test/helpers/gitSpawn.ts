import { spawn } from 'node:child_process';
import { GitLauncher, type GitProcess } from '../../src/git/launcher/launcher.ts';

const launcher = new GitLauncher();

/**
 * Starts the test's own git (a client, a fixture) in `cwd` with exactly `env`, forked by a helper process as the
 * server's commands are: a test worker holds several hundred megabytes, and forking it cost more than the git
 * command itself. The caller ends stdin.
 */
export function spawnTestGit(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): GitProcess {
  const argv = ['-C', cwd, ...args];
  return launcher.launch({ args: argv, env, channel: false }, () => spawn('git', argv, { env }) as GitProcess);
}
