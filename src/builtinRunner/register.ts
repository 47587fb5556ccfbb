// `forgegraph runner register`: Ping, then Register with a registration token, then the `.runner` file.
import { hostname } from 'node:os';
import { RUNNER_VERSION, ping, runnerClient } from './client.ts';
import { labelNames, writeRunnerFile, type RunnerFile } from './runnerFile.ts';

export interface RegisterOptions {
  instance: string;
  token: string;
  name?: string | undefined;
  labels: string[];
  file: string;
  ephemeral?: boolean;
}

/** Registers with the instance and writes the `.runner` file. @throws Error, ConnectError */
export async function registerRunner(o: RegisterOptions): Promise<RunnerFile> {
  const address = o.instance.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(address)) throw new Error(`--instance must be an http(s) URL, got "${o.instance}"`);
  const labels = labelNames(o.labels);
  const name = o.name || hostname();
  await ping(address, name);
  const { runner } = await runnerClient(address).register({
    name,
    token: o.token,
    version: RUNNER_VERSION,
    labels,
    ephemeral: o.ephemeral ?? false,
  });
  if (!runner?.uuid || !runner.token) throw new Error('the instance answered Register without a runner');
  const file: RunnerFile = { id: Number(runner.id), uuid: runner.uuid, name: runner.name, token: runner.token, address, labels };
  writeRunnerFile(o.file, file);
  return file;
}
