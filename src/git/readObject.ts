import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { gitCache } from './cache.ts';
import { toDomainError } from './errors.ts';

/** A git object's raw content and type. */
export interface RawObject {
  type: 'blob' | 'tree' | 'commit' | 'tag';
  content: Buffer;
}

/**
 * Reads any object by full sha (Gitea's blob API does not check the type, so neither does this).
 * @throws NotFoundError when the object does not exist.
 */
export async function readObject(gitDir: string, sha: string): Promise<RawObject> {
  try {
    const obj = await isomorphicGit().readObject({ fs, gitdir: gitDir, oid: sha, format: 'content', cache: gitCache(gitDir) });
    const content =
      obj.object instanceof Uint8Array ? Buffer.from(obj.object.buffer, obj.object.byteOffset, obj.object.byteLength) : Buffer.alloc(0);
    if (obj.type === 'deflated' || obj.type === 'wrapped') throw new Error(`unexpected object format ${obj.type}`);
    return { type: obj.type, content };
  } catch (err) {
    throw toDomainError(err, `object does not exist [id: ${sha}, rel_path: ]`);
  }
}
