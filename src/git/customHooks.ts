import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * The server-side hooks a repository may have scripts of its own for (Gitea git.ServerSideHooks). They live where
 * Gitea keeps them, `<gitDir>/hooks/<name>.d/<name>`, so they move and go with the repository; git never runs
 * them itself (receive-pack's core.hooksPath is the shared directory), the shared hooks do, and only when the
 * server says custom hooks are enabled (src/git/installHooks.ts).
 */
export const CUSTOM_HOOK_NAMES = ['pre-receive', 'update', 'post-receive'] as const;
export type CustomHookName = (typeof CUSTOM_HOOK_NAMES)[number];

/** One custom hook: its script, empty when the repository has none. */
export interface CustomHook {
  name: CustomHookName;
  content: string;
}

/** Whether `name` is a hook a repository may have a script for. */
export function isCustomHookName(name: string): name is CustomHookName {
  return (CUSTOM_HOOK_NAMES as readonly string[]).includes(name);
}

function hookFile(gitDir: string, name: CustomHookName): string {
  return path.join(gitDir, 'hooks', `${name}.d`, name);
}

/** The repository's script for hook `name` ('' when it has none). */
export async function readCustomHook(gitDir: string, name: CustomHookName): Promise<CustomHook> {
  try {
    return { name, content: await readFile(hookFile(gitDir, name), 'utf8') };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { name, content: '' };
    throw err;
  }
}

/**
 * Sets the repository's script for hook `name` (written whole and executable, then renamed into place, so a push
 * never runs half a script); empty content removes it.
 */
export async function writeCustomHook(gitDir: string, name: CustomHookName, content: string): Promise<void> {
  const file = hookFile(gitDir, name);
  if (!content) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, content, { mode: 0o755 });
    await chmod(temp, 0o755);
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
