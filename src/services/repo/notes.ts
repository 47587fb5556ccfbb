// Git notes through the API (Gitea routers/api/v1/repo/notes.go GetNote).
import type { Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { readCommit } from '../../git/readCommit.ts';
import { readNote } from '../../git/readNote.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { commitViews, type CommitView } from './commitView.ts';
import { requireCodeRead } from './gitRead.ts';

/** A commit's note and the notes commit that last wrote it (Gitea api.Note). */
export interface NoteView {
  repo: Models.Repository;
  message: string;
  commit: CommitView;
}

/**
 * GET /repos/{o}/{r}/git/notes/{sha} (Gitea GetNote): the note of the commit `sha` names (a branch, tag or
 * commit id, abbreviated too) in `refs/notes/commits`, with the notes commit that last changed it (with its
 * file stats, which Gitea always shows, and its verification when asked). 422 without a sha, 404 for an
 * unknown commit or no note.
 * @throws NotFoundError, ValidationError
 */
export async function getNote(cx: ServiceContext, ref: RepoRef, sha: string, verification: boolean): Promise<NoteView> {
  if (!sha) throw new ValidationError('SHA not provided', { field: 'sha' });
  const access = await requireCodeRead(cx, ref.owner, ref.repo);
  const target = access.repo.isEmpty ? null : await resolveRef(access.gitDir, sha);
  if (!target) throw new NotFoundError(`object does not exist [id: ${sha}, rel_path: ]`, { sha });
  const note = await readNote(access.gitDir, target.commit);
  if (!note) throw new NotFoundError(sha, { sha });
  const [commit] = await commitViews(cx, access.gitDir, [await readCommit(access.gitDir, note.noteCommit)], true, verification);
  if (!commit) throw new NotFoundError(sha, { sha });
  return { repo: access.repo, message: note.message.toString('utf8'), commit };
}
