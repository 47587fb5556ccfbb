import type { RepoLocks } from '../../src/db/repoLocks.ts';

/** A section holding repository `repoId` (`refs`: only those refs; null: the whole) until `release` is called. */
export function holdRepoLock(
  locks: RepoLocks,
  repoId: number,
  refs: string[] | null,
): { release: () => void; entered: Promise<void>; done: Promise<void> } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let inside!: () => void;
  const entered = new Promise<void>((r) => (inside = r));
  const section = async () => {
    inside();
    await gate;
  };
  const done = refs ? locks.runRefs(repoId, refs, section) : locks.run(repoId, section);
  return { release, entered, done };
}
