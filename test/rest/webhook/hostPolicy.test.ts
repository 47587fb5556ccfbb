import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { branchFilterAllows, compileGlob } from '../../../src/services/glob.ts';
import { openSecret, sealSecret } from '../../../src/services/webhook/secretBox.ts';
import { parseHostPolicy } from '../../../src/services/webhook/hostPolicy.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';
import { HookReceiver } from '../../helpers/hookReceiver.ts';

describe('ALLOWED_HOST_LIST semantics', () => {
  it('external refuses loopback, private, link-local and unspecified addresses', () => {
    const p = parseHostPolicy(['external']);
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(p.allowsIp(ip), ip).toBe(false);
    }
    for (const ip of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '100.64.0.1']) expect(p.allowsIp(ip), ip).toBe(true);
    expect(p.allowsHost('example.com')).toBe(false);
  });
  it('loopback, private, *, CIDRs and host globs', () => {
    expect(parseHostPolicy(['loopback']).allowsIp('127.0.0.5')).toBe(true);
    expect(parseHostPolicy(['loopback']).allowsIp('::1')).toBe(true);
    expect(parseHostPolicy(['loopback']).allowsIp('10.0.0.1')).toBe(false);
    expect(parseHostPolicy(['private']).allowsIp('10.0.0.1')).toBe(true);
    expect(parseHostPolicy(['private']).allowsIp('8.8.8.8')).toBe(false);
    expect(parseHostPolicy(['*']).allowsIp('127.0.0.1')).toBe(true);
    const cidr = parseHostPolicy(['192.168.0.0/16', '*.hooks.example.com']);
    expect(cidr.allowsIp('192.168.7.7')).toBe(true);
    expect(cidr.allowsIp('192.169.0.1')).toBe(false);
    expect(cidr.allowsHost('ci.hooks.example.com')).toBe(true);
    expect(cidr.allowsHost('CI.HOOKS.EXAMPLE.COM')).toBe(true);
    expect(cidr.allowsHost('hooks.example.org')).toBe(false);
  });
});

describe('branch filter globs (gobwas/glob without separators, as Gitea)', () => {
  it('matches as Gitea', () => {
    expect(branchFilterAllows('', 'any/thing')).toBe(true);
    expect(branchFilterAllows('*', 'any/thing')).toBe(true);
    expect(branchFilterAllows('{main,release/*}', 'release/v1/x')).toBe(true);
    expect(branchFilterAllows('{main,release/*}', 'main')).toBe(true);
    expect(branchFilterAllows('{main,release/*}', 'feature')).toBe(false);
    expect(branchFilterAllows('feat-?', 'feat-1')).toBe(true);
    expect(branchFilterAllows('feat-?', 'feat-12')).toBe(false);
    expect(branchFilterAllows('[!d]ev', 'dev')).toBe(false);
    expect(branchFilterAllows('[a-c]ev', 'bev')).toBe(true);
    expect(branchFilterAllows('a\\*b', 'a*b')).toBe(true);
    expect(branchFilterAllows('a\\*b', 'axb')).toBe(false);
    expect(() => compileGlob('{a,b')).toThrow();
    expect(() => compileGlob('[ab')).toThrow();
  });
});

describe('authorization header at rest', () => {
  it('is AES-256-GCM under the secret key', () => {
    const sealed = sealSecret('k1', 'Bearer x');
    expect(sealed).not.toContain('Bearer');
    expect(openSecret('k1', sealed)).toBe('Bearer x');
    expect(() => openSecret('k2', sealed)).toThrow();
    expect(sealSecret('k1', '')).toBe('');
  });
});

describe.each(PROVIDERS)('the host policy on deliveries (%s)', (provider) => {
  let t: TestApp;
  let rx: HookReceiver;
  const drain = () => t.app.jobs.drain();
  const hookFor = async (url: string) => {
    const res = await t.request('POST', '/api/v1/repos/alice/demo/hooks', {
      headers: basic('alice'),
      body: { type: 'gitea', config: { url, content_type: 'json' }, active: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const fire = async (id: number) => {
    expect((await t.request('POST', `/api/v1/repos/alice/demo/hooks/${id}/tests`, { headers: basic('alice') })).statusCode).toBe(204);
    await drain();
    const [delivery] = await t.db.hookTask.findMany({ where: { hookId: id } });
    return delivery;
  };

  beforeAll(async () => {
    // Only 127.0.0.1 itself (not the rest of 127/8): a redirect to 127.0.0.2 must be refused.
    t = await startTestApp(provider, { WEBHOOK_ALLOWED_HOST_LIST: 'external,127.0.0.1/32' });
    rx = await HookReceiver.start();
    const alice = await t.createUser('alice');
    await createRepo(t, alice, 'demo', { autoInit: true });
  });
  afterAll(async () => {
    await rx?.close();
    await t?.close();
  });

  it('refuses a redirect to a host outside the list', async () => {
    const redirector = createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${new URL(rx.url).port}/hook` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const before = rx.received.length;
      const delivery = await fire(await hookFor(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/`));
      expect(delivery).toMatchObject({ isDelivered: true, isSucceed: false });
      expect(JSON.parse(delivery?.responseContent ?? '{}').body).toMatch(
        /can only call allowed HTTP servers.*deny '127\.0\.0\.2\(127\.0\.0\.2\)'/,
      );
      expect(rx.received.length).toBe(before);
    } finally {
      redirector.close();
    }
  });
});

describe.each(PROVIDERS)('the default host policy (%s)', (provider) => {
  let t: TestApp;
  let rx: HookReceiver;
  beforeAll(async () => {
    t = await startTestApp(provider);
    rx = await HookReceiver.start();
    const alice = await t.createUser('alice');
    await createRepo(t, alice, 'demo', { autoInit: true });
  });
  afterAll(async () => {
    await rx?.close();
    await t?.close();
  });

  it('refuses loopback without WEBHOOK_ALLOWED_HOST_LIST, and records why', async () => {
    const res = await t.request('POST', '/api/v1/repos/alice/demo/hooks', {
      headers: basic('alice'),
      body: { type: 'gitea', config: { url: rx.url, content_type: 'json' }, active: true },
    });
    const id = res.json().id as number;
    expect((await t.request('POST', `/api/v1/repos/alice/demo/hooks/${id}/tests`, { headers: basic('alice') })).statusCode).toBe(204);
    await t.app.jobs.drain();
    expect(rx.received).toHaveLength(0);
    const [delivery] = await t.db.hookTask.findMany({ where: { hookId: id } });
    expect(delivery).toMatchObject({ isDelivered: true, isSucceed: false, statusCode: 0 });
    expect(JSON.parse(delivery?.responseContent ?? '{}').body).toMatch(
      /^Delivery: webhook can only call allowed HTTP servers .*deny '127\.0\.0\.1\(127\.0\.0\.1\)'/,
    );
    const hook = (await t.request('GET', `/api/v1/repos/alice/demo/hooks/${id}`, { headers: basic('alice') })).json();
    expect(hook).toMatchObject({ last_status: 'fail', deliveries_failed: 1 });
  });

  it('checks the address a name resolves to when connecting (a name is no way around the list)', async () => {
    const res = await t.request('POST', '/api/v1/repos/alice/demo/hooks', {
      headers: basic('alice'),
      body: { type: 'gitea', config: { url: `http://localhost:${new URL(rx.url).port}/hook`, content_type: 'json' }, active: true },
    });
    const id = res.json().id as number;
    expect((await t.request('POST', `/api/v1/repos/alice/demo/hooks/${id}/tests`, { headers: basic('alice') })).statusCode).toBe(204);
    await t.app.jobs.drain();
    expect(rx.received).toHaveLength(0);
    const [delivery] = await t.db.hookTask.findMany({ where: { hookId: id } });
    expect(delivery).toMatchObject({ isDelivered: true, isSucceed: false, attempts: 1 });
    expect(JSON.parse(delivery?.responseContent ?? '{}').body).toMatch(/deny 'localhost\(/);
  });
});
