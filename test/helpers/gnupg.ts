// A throw-away GnuPG home with ed25519 keys for signature tests: alice's, bob's, and a stranger's (alice's e-mail,
// never registered), through the real gpg.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function gnupg() {
  const home = mkdtempSync(path.join(tmpdir(), 'fg-gpg-'));
  const gpg = (args: string[], input?: string) =>
    execFileSync('gpg', ['--batch', '--yes', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
      env: { ...process.env, GNUPGHOME: home },
      ...(input === undefined ? {} : { input }),
    }).toString('utf8');
  const keyOf = (uid: string) => {
    gpg(['--quick-gen-key', uid, 'ed25519', 'sign', 'never']);
    const fpr = /^fpr:+([0-9A-F]{40}):/m.exec(gpg(['--with-colons', '--list-keys', uid]))?.[1] ?? '';
    return { fpr, keyId: fpr.slice(-16), armored: gpg(['--armor', '--export', fpr]) };
  };
  return {
    home,
    alice: keyOf('Alice <alice@example.com>'),
    bob: keyOf('Bob Other <bob-elsewhere@example.org>'),
    stranger: keyOf('Stranger <alice@example.com>'),
    sign: (fpr: string, text: string) => gpg(['--armor', '--detach-sign', '--local-user', fpr], text),
    dispose: () => {
      execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: home } });
      rmSync(home, { recursive: true, force: true });
    },
  };
}
