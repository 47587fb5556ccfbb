// Git's pkt-line framing, for the parts of the smart HTTP protocol the server writes itself.

/** One pkt-line: four hex digits of length (themselves included), then the payload. */
export function pktLine(s: string): Buffer {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);
}

/**
 * What smart HTTP's GET info/refs writes before the service's own advertisement, as git http-backend does: the
 * `# service=git-<service>` line and a flush, except under protocol version 2 (nothing).
 */
export function serviceAnnouncement(service: string, gitProtocol: string | undefined): Buffer {
  if (gitProtocol?.split(':').includes('version=2')) return Buffer.alloc(0);
  return Buffer.concat([pktLine(`# service=git-${service}\n`), Buffer.from('0000')]);
}
