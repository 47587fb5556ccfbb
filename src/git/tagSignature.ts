// An annotated tag's signature as git reads it (parse_signed_buffer): the signature is the tail of the tag object
// from the last line that opens a PGP or SSH signature block; the bytes before it are what was signed. The tagger
// stands where a commit's committer does (Forgejo tagToGitObject), so tags verify as commits do.
import { readSignedObjects, type CommitSignature } from './commitSignature.ts';

const MARKERS = ['-----BEGIN PGP SIGNATURE-----', '-----BEGIN PGP MESSAGE-----', '-----BEGIN SSH SIGNATURE-----'].map((m) =>
  Buffer.from(m),
);

/** Where the signature of a tag object starts (its length when it carries none). */
function signatureStart(body: Buffer): number {
  let match = body.length;
  let pos = 0;
  while (pos < body.length) {
    if (MARKERS.some((m) => body.subarray(pos, pos + m.length).equals(m))) match = pos;
    const nl = body.indexOf('\n', pos);
    pos = nl < 0 ? body.length : nl + 1;
  }
  return match;
}

/** Splits a tag object into its signature and signed payload, with its tagger as the committer. */
export function parseTagSignature(sha: string, body: Buffer): CommitSignature {
  const headerEnd = body.indexOf('\n\n');
  const header = body.toString('utf8', 0, headerEnd < 0 ? body.length : headerEnd);
  const tagger = /^tagger (.*?) <([^>]*)>/m.exec(header);
  const start = signatureStart(body);
  return {
    sha,
    signature: start < body.length ? body.toString('utf8', start) : null,
    payload: body.subarray(0, start),
    committerName: tagger?.[1] ?? '',
    committerEmail: tagger?.[2] ?? '',
  };
}

/** Reads the signatures of annotated tag objects. @throws NotFoundError */
export function readTagSignatures(gitDir: string, shas: readonly string[]): Promise<Map<string, CommitSignature>> {
  return readSignedObjects(gitDir, shas, 'tag', parseTagSignature);
}
