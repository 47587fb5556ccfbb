// The SSH wire format's fields (RFC 4251 §5): what public key blobs, signature blobs and SSHSIG envelopes are made of.

/** Reads an SSH wire buffer field by field; a field that runs past the end throws `short()`'s error. */
export class SshWireReader {
  private at = 0;
  constructor(
    private readonly buf: Buffer,
    private readonly short: () => Error = () => new Error('short read'),
  ) {}

  /** A `string`: a uint32 length, then that many bytes. */
  string(): Buffer {
    const n = this.uint32();
    return this.bytes(n);
  }

  uint32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  bytes(n: number): Buffer {
    if (this.at + n > this.buf.length) throw this.short();
    this.at += n;
    return this.buf.subarray(this.at - n, this.at);
  }

  /** Whether every byte has been read (nothing may trail). */
  get done(): boolean {
    return this.at === this.buf.length;
  }
}
