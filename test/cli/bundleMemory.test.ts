import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE } from '../../src/bin/bundle.js';
import { freePort, ServerProcess } from '../helpers/serverProcess.ts';

/** The files of the current build: the entry and the chunks it imports, statically or lazily, transitively. */
function builtChunks(): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const [, spec] of text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+\.mjs)"/g)) visit(path.resolve(path.dirname(file), spec!));
  };
  visit(BUNDLE);
  return files;
}

/**
 * What the bundle does for the idle server's memory (src/bin/bundle.js; the figures are bench/coldStart.ts'): every
 * chunk is Latin-1, which V8 keeps at one byte per character, and no chunk imports `node:http` as an ES module,
 * which on Node 22+ loads Node's undici for nothing. The global setup built the bundle from the current sources.
 */
describe('the bundle', () => {
  const chunks = builtChunks();
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('is the entry and its chunks', () => {
    expect(chunks.size).toBeGreaterThan(20);
    expect([...chunks.keys()].some((f) => f.includes(`${path.sep}chunks${path.sep}app-`))).toBe(true);
  });

  it('holds no character beyond Latin-1, so V8 keeps each chunk at one byte a character', () => {
    const wide = [...chunks].filter(([, text]) => /[\u0100-\uffff]/.test(text)).map(([file]) => path.basename(file));
    expect(wide).toEqual([]);
  });

  it('imports node:http through require, never as an ES module', () => {
    const esm = [...chunks].filter(([, text]) => /(?:from|import\()\s*"(?:node:)?http"/.test(text)).map(([file]) => path.basename(file));
    expect(esm).toEqual([]);
    // Connect's Node transport, bundled in, is one of the importers that now gets it this way.
    expect([...chunks.values()].some((text) => text.includes('node-http-via-require:node:http'))).toBe(true);
  });

  it('serves without loading undici (Node 22+ loads it for an ES module import of node:http)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fg-bundle-memory-'));
    dirs.push(dir);
    const loaded = path.join(dir, 'loaded.json');
    const record = `import fs from 'node:fs'; process.on('exit', () => fs.writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));`;
    const port = await freePort();
    const server = new ServerProcess({
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(record)}`,
    });
    try {
      await server.ready(port);
      const version = await fetch(`http://127.0.0.1:${port}/api/v1/version`);
      expect(version.status).toBe(200);
      expect(((await version.json()) as { version: string }).version).toMatch(/^\d+\.\d+/);
    } finally {
      await server.stop();
    }
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(modules).toContain('NativeModule http');
    expect(modules.filter((m) => m.includes('undici'))).toEqual([]);
  });
});
