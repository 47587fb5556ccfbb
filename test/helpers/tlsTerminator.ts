// A local TLS terminator in front of a plain-HTTP server, for clients that speak only HTTPS to a host (GitHub's
// `gh` talks to an Enterprise host over https). A self-signed certificate for its loopback address made with
// openssl; clients trust it through SSL_CERT_FILE (gh) or GIT_SSL_CAINFO (git).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:tls';

export interface TlsTerminator {
  /** `address` or `address:port`: the port is left out when it is 443, as clients write the host. */
  host: string;
  port: number;
  /** The PEM certificate clients must trust. */
  certFile: string;
  close(): Promise<void>;
}

/**
 * Listens on `address`:`port` with TLS and pipes each connection to 127.0.0.1:`target`. Rejects (EACCES,
 * EADDRINUSE) when it cannot listen there.
 */
export async function startTlsTerminator(address: string, port: number, target: () => number): Promise<TlsTerminator> {
  const dir = mkdtempSync(path.join(tmpdir(), 'forgegraph-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      `/CN=${address}`,
      '-addext',
      `subjectAltName=IP:${address},DNS:localhost`,
    ],
    { stdio: 'ignore' },
  );
  const open = new Set<{ destroy(): void }>();
  const server: Server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (socket) => {
    const upstream = connect(target(), '127.0.0.1');
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, resolve);
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    host: port === 443 ? address : `${address}:${port}`,
    port,
    certFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}
