import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The shared hooks talk to the server that spawned receive-pack over file descriptor 3 (a socket it passes
 * down; the variable FORGEGRAPH_HOOK_CHANNEL says it is there). Pushes that do not come from the server
 * (none today) find no channel and pass.
 *
 * pre-receive: sends "pre-receive", "quarantine <GIT_QUARANTINE_PATH>" (where the pushed objects wait, for the
 * branch protection checks), the "<old> <new> <ref>" lines and "." and waits for the answer; the server
 * answers "ok" once it has recorded the push's bookkeeping as a job, so no ref moves without it. Any other
 * answer (or none) declines the push.
 *
 * Both copy their input with the shell's own `read`/`printf`, not `cat`: a push already runs a dozen processes, and
 * each process costs milliseconds of CPU to start.
 *
 * Custom hooks (Gitea's git hooks, see customHooks.ts): when the server started receive-pack with
 * FORGEGRAPH_GIT_HOOKS=1 (DISABLE_GIT_HOOKS=false), each shared hook then runs the repository's own script of
 * the same name, as Gitea runs `<name>.d/*` after its own: pre-receive once the server accepted the push (a
 * non-zero exit declines it), update per ref with git's arguments (a non-zero exit leaves that ref alone),
 * post-receive after the server heard what was applied (its exit status changes nothing).
 */
const CUSTOM_HOOK = (name: string) =>
  `custom="\${GIT_DIR:-.}/hooks/${name}.d/${name}"; if [ -z "$FORGEGRAPH_GIT_HOOKS" ] || [ ! -f "$custom" ]; then custom=''; fi`;

const PRE_RECEIVE = `#!/bin/sh
# Installed by Forgegraph (src/git/installHooks.ts): the server records the push before refs move.
if [ -z "$FORGEGRAPH_HOOK_CHANNEL" ]; then cat > /dev/null; exit 0; fi
input=''
{ echo pre-receive; echo "quarantine \${GIT_QUARANTINE_PATH:-}"; while read -r line; do printf '%s\\n' "$line"; input="$input$line
"; done; echo .; } >&3 || exit 1
if ! read -r answer <&3; then echo "forgegraph: the server did not answer" >&2; exit 1; fi
if [ "$answer" != ok ]; then echo "forgegraph: $answer" >&2; exit 1; fi
${CUSTOM_HOOK('pre-receive')}
[ -z "$custom" ] && exit 0
printf '%s' "$input" | "$custom" || exit 1
exit 0
`;

/**
 * post-receive: sends "post-receive", the updates receive-pack actually applied, and ".". Installed only while
 * custom hooks are enabled, for the repository's own script: without it the server reads what was applied from
 * the refs once receive-pack exited (it holds the repository's lock until then), which spares every push a process.
 */
const POST_RECEIVE = `#!/bin/sh
# Installed by Forgegraph (src/git/installHooks.ts): tells the server which ref updates were applied.
if [ -z "$FORGEGRAPH_HOOK_CHANNEL" ]; then cat > /dev/null; exit 0; fi
input=''
{ echo post-receive; while read -r line; do printf '%s\\n' "$line"; input="$input$line
"; done; echo .; } >&3
${CUSTOM_HOOK('post-receive')}
[ -n "$custom" ] && printf '%s' "$input" | "$custom"
exit 0
`;

/**
 * update: runs the repository's own update script (there is nothing for the server to do per ref). Installed only
 * while custom hooks are enabled: git starts it once per ref, a process every push would pay for otherwise.
 */
const UPDATE = `#!/bin/sh
# Installed by Forgegraph (src/git/installHooks.ts): the repository's own update script, when enabled.
${CUSTOM_HOOK('update')}
[ -z "$custom" ] && exit 0
"$custom" "$@" || exit 1
exit 0
`;

const HOOKS: Record<string, string> = { 'pre-receive': PRE_RECEIVE };
/** The hooks installed only while custom hooks are enabled. */
const CUSTOM_ONLY: Record<string, string> = { 'post-receive': POST_RECEIVE, update: UPDATE };

/** The directory every repository's `core.hooksPath` points at. */
export function hooksDir(dataDir: string): string {
  return path.join(dataDir, 'hooks');
}

/**
 * Writes the shared hooks into `<dataDir>/hooks` (idempotent: rewritten only when different or not executable).
 * Each hook is written whole, executable, under a temporary name and renamed over the old one: a push (on any
 * instance) always finds a complete, executable hook, and instances starting together on one data directory
 * never trip over each other's writes. `customHooks` (DISABLE_GIT_HOOKS=false) adds the post-receive and update
 * hooks, else removes them.
 */
export async function installHooks(dataDir: string, opts: { customHooks?: boolean } = {}): Promise<void> {
  const dir = hooksDir(dataDir);
  await mkdir(dir, { recursive: true });
  if (!opts.customHooks) await Promise.all(Object.keys(CUSTOM_ONLY).map((name) => rm(path.join(dir, name), { force: true })));
  for (const [name, text] of Object.entries({ ...HOOKS, ...(opts.customHooks ? CUSTOM_ONLY : {}) })) {
    const file = path.join(dir, name);
    if (await isInstalled(file, text)) continue;
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o755 });
      // The mode given to writeFile is reduced by the umask.
      await chmod(temp, 0o755);
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }
}

/** True when `file` holds `text` and is executable. */
async function isInstalled(file: string, text: string): Promise<boolean> {
  try {
    const [current, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    return current === text && (info.mode & 0o111) === 0o111;
  } catch {
    return false;
  }
}
