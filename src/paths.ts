import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The checkout: the nearest directory above this module that holds a package.json. The same whether the code runs
 * from src/ (tsx, vitest) or from the dist/ bundle, so files beside the code (migrations, templates, the git launcher's
 * helper, package.json) are found from here, never relative to the module that reads them.
 */
export const ROOT = findRoot(import.meta.dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
