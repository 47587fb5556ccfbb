import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { isomorphicGit } from '../lazyPackage.ts';
import { AlreadyExistsError } from '../errors.ts';
import { toDomainError } from './errors.ts';
import { runGit } from './run.ts';

/** What a new bare repository needs. */
export interface InitRepositoryInput {
  gitdir: string;
  defaultBranch: string;
  objectFormat: 'sha1' | 'sha256';
  /** Shared hooks directory (`<dataDir>/hooks`); created when missing. */
  hooksDir: string;
}

/** Per-repository settings Gitea sets: push options, partial clone, HTTP push, shared hooks. */
function settings(hooksDir: string): Array<[string, string]> {
  return [
    ['receive.advertisePushOptions', 'true'],
    ['uploadpack.allowFilter', 'true'],
    ['uploadpack.allowAnySHA1InWant', 'true'],
    ['http.receivepack', 'true'],
    ['core.hooksPath', hooksDir],
  ];
}

/**
 * Creates an empty bare repository with `git init --bare` (the CLI, so sha256 works and core settings are
 * git's own), HEAD on the default branch, then writes the per-repository settings.
 * @throws AlreadyExistsError when the directory exists
 */
export async function initRepository(input: InitRepositoryInput): Promise<void> {
  if (fs.existsSync(input.gitdir)) throw new AlreadyExistsError('repository files already exist', { gitdir: input.gitdir });
  await mkdir(input.hooksDir, { recursive: true });
  await mkdir(path.dirname(input.gitdir), { recursive: true });
  await runGit(input.gitdir, [
    'init',
    '--bare',
    '--quiet',
    `--object-format=${input.objectFormat}`,
    `--initial-branch=${input.defaultBranch}`,
  ]);
  await configureRepository(input.gitdir, input.hooksDir);
}

/** Writes Gitea's per-repository settings into an existing bare repository (a new one, or one being adopted). */
export async function configureRepository(gitdir: string, hooksDir: string): Promise<void> {
  await mkdir(hooksDir, { recursive: true });
  try {
    for (const [key, value] of settings(hooksDir)) await isomorphicGit().setConfig({ fs, gitdir, path: key, value });
  } catch (err) {
    throw toDomainError(err, 'cannot configure repository');
  }
}
