// GitHub's Commit.signature (GitSignature: GpgSignature, SshSignature, UnknownSignature) over the verification the
// REST door gives (services/gpg/verifyCommits.ts, Gitea's CommitVerification): one `git cat-file --batch` and one
// verification pass for all the commits of a request's repository, whatever their number.
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { verifyRepositoryCommits, type CommitVerification } from '../../services/gpg/verifyCommits.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { inherits } from '../policy.ts';
import { CommitRef, type CommitView } from './gitObject.ts';
import { UserRef } from './user.ts';

/** A signed commit's verification, with the commit it belongs to. */
interface SignatureView {
  commit: CommitView;
  v: CommitVerification;
}

const SSH = '-----BEGIN SSH SIGNATURE-----';
const PGP = '-----BEGIN PGP SIGNATURE-----';

/** GitHub's GitSignatureState for Gitea's verification reasons. */
function stateOf(v: CommitVerification): string {
  if (v.verified) return 'VALID';
  switch (v.reason) {
    case 'gpg.error.extract_sign':
      return 'MALFORMED_SIG';
    case 'gpg.error.probable_bad_signature':
      return 'INVALID';
    case 'gpg.error.no_gpg_keys_found':
      return 'UNKNOWN_KEY';
    default:
      return 'UNKNOWN_SIG_TYPE';
  }
}

const GitSignatureStateEnum = builder.enumType('GitSignatureState', {
  description: 'The state of a Git signature.',
  values: [
    'VALID',
    'INVALID',
    'MALFORMED_SIG',
    'UNKNOWN_KEY',
    'BAD_EMAIL',
    'UNVERIFIED_EMAIL',
    'NO_USER',
    'UNKNOWN_SIG_TYPE',
    'UNSIGNED',
    'GPGVERIFY_UNAVAILABLE',
    'GPGVERIFY_ERROR',
    'NOT_SIGNING_KEY',
    'EXPIRED_KEY',
    'OCSP_PENDING',
    'OCSP_ERROR',
    'BAD_CERT',
    'OCSP_REVOKED',
  ] as const,
});

const OF_SIGNATURE = inherits('part of a readable commit');

const GitSignatureRef = builder.interfaceRef<SignatureView>('GitSignature').implement({
  description: 'Information about a signature (GPG or SSH) on a Commit.',
  resolveType: (s) =>
    s.v.signature.startsWith(PGP) ? 'GpgSignature' : s.v.signature.startsWith(SSH) ? 'SshSignature' : 'UnknownSignature',
  fields: (t) => ({
    email: t.string({
      description: "The e-mail the signature vouches for: the signer's when verified, else the committer's.",
      resolve: (s) => s.v.signer?.email ?? s.commit.commit.committer.email,
    }),
    isValid: t.boolean({ description: 'True when the signature verifies against a key registered here.', resolve: (s) => s.v.verified }),
    payload: t.string({ description: 'The signed commit object, without its signature header.', resolve: (s) => s.v.payload }),
    signature: t.string({ description: 'The ASCII-armored signature header.', resolve: (s) => s.v.signature }),
    signer: t.field({
      type: UserRef,
      nullable: true,
      description: 'The user whose key made the signature, when it verifies.',
      ...inherits("REST shows the signer in a readable commit's verification"),
      resolve: (s) => s.v.signerUser,
    }),
    state: t.field({ type: GitSignatureStateEnum, resolve: (s) => stateOf(s.v) as never }),
    verifiedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the signature was verified: now, as verification runs on every read (null when it does not verify).',
      resolve: (s) => (s.v.verified ? new Date() : null),
    }),
    wasSignedByGitHub: t.boolean({ description: 'Always false: this forge does not sign commits.', resolve: () => false }),
  }),
});

builder.objectType(builder.objectRef<SignatureView>('GpgSignature'), {
  description: 'A GPG (OpenPGP) signature on a commit.',
  interfaces: [GitSignatureRef],
  fields: (t) => ({
    keyId: t.string({ nullable: true, description: 'The issuer key id the signature names.', resolve: (s) => s.v.keyId || null }),
  }),
});

builder.objectType(builder.objectRef<SignatureView>('SshSignature'), {
  description: 'An SSH signature on a commit. Not verified here: isValid is false and state UNKNOWN_KEY.',
  interfaces: [GitSignatureRef],
  fields: (t) => ({
    keyFingerprint: t.string({ nullable: true, description: 'Not read: null.', resolve: () => null }),
  }),
});

builder.objectType(builder.objectRef<SignatureView>('UnknownSignature'), {
  description: 'A signature of a kind this forge does not read (an X.509 signature, say).',
  interfaces: [GitSignatureRef],
});

/** The verifications of a request's commits, batched per repository. */
const verifications = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<CommitView, CommitVerification | undefined, string>(
      async (commits) => {
        const byRepo = new Map<number, CommitView[]>();
        for (const c of commits) byRepo.set(c.repo.id, [...(byRepo.get(c.repo.id) ?? []), c]);
        const found = new Map<string, CommitVerification>();
        await Promise.all(
          [...byRepo.values()].map(async (list) => {
            const repo = list[0]!.repo;
            const verified = await verifyRepositoryCommits(
              ctx.cx,
              repo,
              list.map((c) => c.oid),
            );
            for (const [sha, v] of verified) found.set(`${repo.id}:${sha}`, v);
          }),
        );
        return commits.map((c) => found.get(`${c.repo.id}:${c.oid}`));
      },
      { cacheKeyFn: (c) => `${c.repo.id}:${c.oid}` },
    ),
);

builder.objectFields(CommitRef, (t) => ({
  signature: t.field({
    type: GitSignatureRef,
    nullable: true,
    description: "The commit's signature and whether it verifies (as Gitea's `verification`); null when unsigned.",
    ...OF_SIGNATURE,
    resolve: async (c, _a, ctx) => {
      const v = await verifications(ctx).load(c);
      return v?.signed ? { commit: c, v } : null;
    },
  }),
}));
