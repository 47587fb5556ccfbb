import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hooksDir, installHooks } from '../../src/git/installHooks.ts';

/** The hooks of the default settings (custom hooks disabled). */
const HOOKS = ['pre-receive'];
const root = mkdtempSync(path.join(tmpdir(), 'forgegraph-hooks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Each hook's text and whether it is executable (null: missing). */
async function hooks(dataDir: string): Promise<Array<{ text: string; executable: boolean } | null>> {
  return Promise.all(
    HOOKS.map(async (name) => {
      const file = path.join(hooksDir(dataDir), name);
      try {
        const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
        return { text, executable: (info.mode & 0o111) === 0o111 };
      } catch {
        return null;
      }
    }),
  );
}

/**
 * Instances starting together on one data directory install the shared hooks at once (issue #30, finding 10): no
 * call fails, and a push at any moment finds each hook complete and executable, old or new, never missing.
 */
describe('installHooks', () => {
  it('concurrent installs on a fresh data directory never fail and leave complete, executable hooks', async () => {
    for (let round = 0; round < 100; round++) {
      const dataDir = path.join(root, `fresh-${round}`);
      const results = await Promise.allSettled([installHooks(dataDir), installHooks(dataDir), installHooks(dataDir)]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      const installed = await hooks(dataDir);
      for (const hook of installed) {
        expect(hook?.executable).toBe(true);
        expect(hook?.text).toMatch(/^#!\/bin\/sh\n[\s\S]*\nexit [01]\n$/);
      }
      // Nothing half-written is left behind.
      expect((await readdir(hooksDir(dataDir))).sort()).toEqual([...HOOKS].sort());
    }
  });

  it('while hooks are upgraded by two instances, a push always finds each hook whole and executable', async () => {
    const reference = path.join(root, 'reference');
    await installHooks(reference);
    const current = await hooks(reference);
    const seen = new Set<string>();
    for (let round = 0; round < 50; round++) {
      const dataDir = path.join(root, `upgrade-${round}`);
      await installHooks(dataDir);
      // An older build's hooks.
      for (const name of HOOKS) await writeFile(path.join(hooksDir(dataDir), name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      let installing = true;
      const reader = (async () => {
        while (installing) {
          for (const hook of await hooks(dataDir)) {
            seen.add(hook === null ? 'missing' : hook.executable ? 'executable' : 'not executable');
            expect(hook).not.toBeNull();
            expect(hook!.executable).toBe(true);
            expect(['#!/bin/sh\nexit 0\n', ...current.map((h) => h!.text)]).toContain(hook!.text);
          }
          await new Promise((r) => setImmediate(r));
        }
      })();
      reader.catch(() => undefined); // its failure is reported below, once the installs settled
      const results = await Promise.allSettled([installHooks(dataDir), installHooks(dataDir)]);
      installing = false;
      await reader;
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(await hooks(dataDir)).toEqual(current);
    }
    expect([...seen]).toEqual(['executable']);
  });

  it('custom hooks add post-receive and update, and disabling them again removes both', async () => {
    const dataDir = path.join(root, 'custom');
    await installHooks(dataDir, { customHooks: true });
    expect((await readdir(hooksDir(dataDir))).sort()).toEqual(['post-receive', 'pre-receive', 'update']);
    expect(await readFile(path.join(hooksDir(dataDir), 'post-receive'), 'utf8')).toContain('echo post-receive');
    await installHooks(dataDir);
    expect(await readdir(hooksDir(dataDir))).toEqual(['pre-receive']);
  });
});
