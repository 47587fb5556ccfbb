// A commit's signature verification → Gitea PayloadCommitVerification (convert.ToVerification).
import type { CommitVerification } from '../../services/gpg/verifyCommits.ts';

/** Gitea PayloadCommitVerification. */
export interface ApiVerification {
  verified: boolean;
  reason: string;
  signature: string;
  signer: { name: string; email: string; username: string } | null;
  payload: string;
}

/** Gitea convert.ToVerification; a commit not verified (null) reads as unsigned. */
export function toApiVerification(v: CommitVerification | null | undefined): ApiVerification {
  if (!v) return { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' };
  return {
    verified: v.verified,
    reason: v.reason,
    signature: v.signature,
    signer: v.signer ? { name: v.signer.name, email: v.signer.email, username: v.signer.username } : null,
    payload: v.payload,
  };
}
