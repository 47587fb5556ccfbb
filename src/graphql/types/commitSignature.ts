// GitHub's Commit.signature (GitSignature: GpgSignature, SshSignature, UnknownSignature) over the verification the
// REST door gives (services/gpg/verifyCommits.ts, Gitea's CommitVerification): one `git cat-file --batch` and one
// verification pass for all the commits of a request's repository, whatever their number. Tag.signature is the
// same for annotated tags (GitHub's GitSignature is "on a Commit or Tag"; its Tag has no such field).
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import { verifyRepositoryObjects, type CommitVerification } from '../../services/gpg/verifyCommits.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { inherits } from '../policy.ts';
import { CommitRef, TagRef, type CommitView } from './gitObject.ts';
import { UserRef } from './user.ts';

/** A signed commit's or tag's verification. */
type SignatureView = CommitVerification;

/** A commit or an annotated tag of a repository, as the loader batches them. */
type SignedObject = Pick<CommitView, 'oid' | 'repo'> & { type: 'commit' | 'tag' };

const SSH = '-----BEGIN SSH SIGNATURE-----';
const PGP = '-----BEGIN PGP SIGNATURE-----';

/** GitHub's GitSignatureState for Gitea's verification reasons. */
function stateOf(v: CommitVerification): string {
  if (v.verified) return 'VALID';
  if (v.state) return v.state;
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
  resolveType: (s) => (s.signature.startsWith(PGP) ? 'GpgSignature' : s.signature.startsWith(SSH) ? 'SshSignature' : 'UnknownSignature'),
  fields: (t) => ({
    email: t.string({
      description: "The e-mail the signature vouches for: the signer's when verified, else the committer's (tagger's).",
      resolve: (s) => s.signer?.email ?? s.committerEmail,
    }),
    isValid: t.boolean({ description: 'True when the signature verifies against a key registered here.', resolve: (s) => s.verified }),
    payload: t.string({ description: 'The signed object, without its signature.', resolve: (s) => s.payload }),
    signature: t.string({ description: 'The ASCII-armored signature header.', resolve: (s) => s.signature }),
    signer: t.field({
      type: UserRef,
      nullable: true,
      description: 'The user whose key made the signature, when it verifies.',
      ...inherits("REST shows the signer in a readable commit's verification"),
      resolve: (s) => s.signerUser,
    }),
    state: t.field({ type: GitSignatureStateEnum, resolve: (s) => stateOf(s) as never }),
    verifiedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the signature was verified: now, as verification runs on every read (null when it does not verify).',
      resolve: (s) => (s.verified ? new Date() : null),
    }),
    wasSignedByGitHub: t.boolean({ description: 'Always false: this forge does not sign commits.', resolve: () => false }),
  }),
});

builder.objectType(builder.objectRef<SignatureView>('GpgSignature'), {
  description: 'A GPG (OpenPGP) signature on a commit.',
  interfaces: [GitSignatureRef],
  fields: (t) => ({
    keyId: t.string({ nullable: true, description: 'The issuer key id the signature names.', resolve: (s) => s.keyId || null }),
  }),
});

builder.objectType(builder.objectRef<SignatureView>('SshSignature'), {
  description: "An SSH signature (`ssh-keygen -Y sign`, git's gpg.format=ssh), verified against the committer's verified SSH keys.",
  interfaces: [GitSignatureRef],
  fields: (t) => ({
    keyFingerprint: t.string({
      nullable: true,
      description: 'The SHA256 fingerprint (`SHA256:…`, as ssh-keygen -l prints it) of the key the signature names; null when unreadable.',
      resolve: (s) => s.keyFingerprint || null,
    }),
  }),
});

builder.objectType(builder.objectRef<SignatureView>('UnknownSignature'), {
  description: 'A signature of a kind this forge does not read (an X.509 signature, say).',
  interfaces: [GitSignatureRef],
});

/** The verifications of a request's commits and tags, batched per repository and kind. */
const verifications = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader<SignedObject, CommitVerification | undefined, string>(
      async (objects) => {
        const groups = new Map<string, SignedObject[]>();
        for (const o of objects) groups.set(`${o.type}:${o.repo.id}`, [...(groups.get(`${o.type}:${o.repo.id}`) ?? []), o]);
        const found = new Map<string, CommitVerification>();
        await Promise.all(
          [...groups.values()].map(async (list) => {
            const { repo, type } = list[0]!;
            const verified = await verifyRepositoryObjects(
              ctx.cx,
              repo,
              list.map((o) => o.oid),
              type,
            );
            for (const [sha, v] of verified) found.set(`${type}:${repo.id}:${sha}`, v);
          }),
        );
        return objects.map((o) => found.get(`${o.type}:${o.repo.id}:${o.oid}`));
      },
      { cacheKeyFn: (o) => `${o.type}:${o.repo.id}:${o.oid}` },
    ),
);

/** The signature of a commit or tag, null when it carries none. */
async function signatureOf(ctx: GraphQLContext, o: SignedObject): Promise<SignatureView | null> {
  const v = await verifications(ctx).load({ type: o.type, oid: o.oid, repo: o.repo });
  return v?.signed ? v : null;
}

builder.objectFields(CommitRef, (t) => ({
  signature: t.field({
    type: GitSignatureRef,
    nullable: true,
    description: "The commit's signature and whether it verifies (as Gitea's `verification`); null when unsigned.",
    ...OF_SIGNATURE,
    resolve: (c, _a, ctx) => signatureOf(ctx, c),
  }),
}));

builder.objectFields(TagRef, (t) => ({
  signature: t.field({
    type: GitSignatureRef,
    nullable: true,
    description:
      "The annotated tag's signature and whether it verifies against the tagger's keys (as GET /repos/{o}/{r}/git/tags/{sha} `verification`); null when unsigned.",
    ...inherits('part of a readable tag'),
    resolve: (tag, _a, ctx) => signatureOf(ctx, tag),
  }),
}));
