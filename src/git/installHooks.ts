import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The shared post-receive hook: receive-pack runs it once per push with the ref updates it actually applied
 * ("<old> <new> <ref>" lines on stdin); it appends them to the file the server named in PUSH_LOG.
 */
const POST_RECEIVE = `#!/bin/sh
# Installed by Forgegraph: records applied ref updates for the server (see src/githttp).
if [ -n "$PUSH_LOG" ]; then cat >> "$PUSH_LOG"; else cat > /dev/null; fi
exit 0
`;

/** The directory every repository's `core.hooksPath` points at. */
export function hooksDir(dataDir: string): string {
  return path.join(dataDir, 'hooks');
}

/** Writes the shared hooks into `<dataDir>/hooks` (idempotent: rewritten only when different). */
export async function installHooks(dataDir: string): Promise<void> {
  const dir = hooksDir(dataDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'post-receive');
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current !== POST_RECEIVE) await writeFile(file, POST_RECEIVE, { mode: 0o755 });
  await chmod(file, 0o755);
}
