// The pure parts of the SSH door: reading exec commands as Gitea's serv does, the SSH settings and their
// defaults, and the clone URL they compose.
import { describe, expect, it } from 'vitest';
import { parseSshCommand, shellWords } from '../../src/ssh/command.ts';
import { loadSshSettings, sshCloneUrl } from '../../src/ssh/settings.ts';

const BASE = { host: '0.0.0.0', rootUrl: 'https://forge.example.org/', dataDir: '/srv/data' };

describe('SSH exec commands', () => {
  it('splits words as a shell does', () => {
    expect(shellWords(`git-upload-pack '/alice/repo.git'`)).toEqual(['git-upload-pack', '/alice/repo.git']);
    expect(shellWords(`a "b \\"c\\" d" e\\ f 'g'"h"`)).toEqual(['a', 'b "c" d', 'e f', 'gh']);
    expect(shellWords(`git-upload-pack 'unterminated`)).toBeNull();
    expect(shellWords('  ')).toEqual([]);
  });

  it('accepts the three git commands with owner/name, a leading slash and .git optional', () => {
    expect(parseSshCommand(`git-upload-pack '/alice/repo.git'`)).toEqual({
      ok: true,
      service: 'upload-pack',
      owner: 'alice',
      name: 'repo',
    });
    expect(parseSshCommand('git-receive-pack alice/Repo')).toEqual({ ok: true, service: 'receive-pack', owner: 'alice', name: 'Repo' });
    expect(parseSshCommand(`git-upload-archive 'org/r.x-y_z.git'`)).toEqual({
      ok: true,
      service: 'upload-archive',
      owner: 'org',
      name: 'r.x-y_z',
    });
  });

  it("refuses everything else with Gitea's serv texts", () => {
    const refusal = (command: string) => {
      const r = parseSshCommand(command);
      return r.ok ? null : r.message;
    };
    expect(refusal('ls -la')).toBe('Unknown git command');
    expect(refusal('git upload-pack alice/repo')).toBe('Unknown git command');
    expect(refusal('git-upload-pack')).toBe('Too few arguments');
    expect(refusal('git-upload-pack repo.git')).toBe('Invalid repository path');
    expect(refusal('git-upload-pack //alice/repo')).toBe('Invalid repository path');
    expect(refusal('git-upload-pack alice/a/b')).toBe('Invalid repo name');
    expect(refusal("git-upload-pack 'alice/$(id)'")).toBe('Invalid repo name');
    expect(refusal("git-upload-pack 'alice")).toBe('Error parsing arguments');
  });
});

describe('SSH settings', () => {
  it('defaults: no server, Gitea’s URL on port 22 at ROOT_URL’s host, user git', () => {
    const s = loadSshSettings({}, BASE);
    expect(s).toMatchObject({
      disabled: false,
      startServer: false,
      listenHost: '0.0.0.0',
      listenPort: 22,
      domain: 'forge.example.org',
      port: 22,
    });
    expect(s.user).toBe('git');
    expect(s.hostKeyDir).toBe('/srv/data/ssh');
    expect(s).toMatchObject({ handshakeTimeoutMs: 30_000, idleTimeoutMs: 600_000, maxConnections: 256, maxConnectionsPerIp: 32 });
  });

  it('SSH_LISTEN_PORT starts the server and is the URL port unless SSH_PORT says otherwise', () => {
    expect(loadSshSettings({ SSH_LISTEN_PORT: '2222' }, BASE)).toMatchObject({ startServer: true, listenPort: 2222, port: 2222 });
    expect(loadSshSettings({ SSH_LISTEN_PORT: '2222', SSH_PORT: '22' }, BASE)).toMatchObject({ listenPort: 2222, port: 22 });
    expect(loadSshSettings({ START_SSH_SERVER: 'true', SSH_PORT: '2200' }, BASE)).toMatchObject({
      startServer: true,
      listenPort: 2200,
      port: 2200,
    });
    expect(loadSshSettings({ START_SSH_SERVER: 'false', SSH_LISTEN_PORT: '2222' }, BASE)).toMatchObject({ startServer: false, port: 22 });
    expect(loadSshSettings({ DISABLE_SSH: 'true', START_SSH_SERVER: 'true', SSH_LISTEN_PORT: '2222' }, BASE)).toMatchObject({
      disabled: true,
      startServer: false,
      port: 22,
    });
  });

  it('names the variable of a bad value', () => {
    expect(() => loadSshSettings({ SSH_LISTEN_PORT: '70000' }, BASE)).toThrow('SSH_LISTEN_PORT must be 0-65535');
    expect(() => loadSshSettings({ START_SSH_SERVER: 'maybe' }, BASE)).toThrow('START_SSH_SERVER must be true or false');
    expect(() => loadSshSettings({ SSH_IDLE_TIMEOUT: 'soon' }, BASE)).toThrow('SSH_IDLE_TIMEOUT');
  });

  it("composes Gitea's clone URLs: scp-like on port 22, ssh:// elsewhere, IPv6 in brackets", () => {
    expect(sshCloneUrl({ user: 'git', domain: 'forge.example.org', port: 22 }, 'alice', 'repo')).toBe(
      'git@forge.example.org:alice/repo.git',
    );
    expect(sshCloneUrl({ user: 'git', domain: 'forge.example.org', port: 2222 }, 'alice', 'repo')).toBe(
      'ssh://git@forge.example.org:2222/alice/repo.git',
    );
    expect(sshCloneUrl({ user: 'gitea', domain: '::1', port: 22 }, 'a', 'b')).toBe('gitea@[::1]:a/b.git');
    expect(sshCloneUrl({ user: 'git', domain: '[::1]', port: 2222 }, 'a', 'b')).toBe('ssh://git@[::1]:2222/a/b.git');
  });
});
