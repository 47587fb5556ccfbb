// PASSWORD_HASH_ALGO (Gitea `[security]`): the parameters new password hashes are made with. Gitea's spelling,
// `argon2$<time>$<memory KiB>$<threads>$<key length>`; only argon2 (argon2id) is implemented. Existing hashes keep
// the parameters they were made with (a PHC string names them), so changing the setting never locks anyone out.

/** Config.passwordHash: argon2id parameters. */
export interface PasswordHashParams {
  timeCost: number;
  /** KiB. */
  memoryCost: number;
  parallelism: number;
  /** Bytes of hash. */
  outputLen: number;
}

/** OWASP's argon2id parameters (19 MiB, 2 passes, 1 lane): `argon2`, or PASSWORD_HASH_ALGO unset. */
export const DEFAULT_PASSWORD_HASH: PasswordHashParams = { timeCost: 2, memoryCost: 19_456, parallelism: 1, outputLen: 32 };

const SPELLING = 'argon2 or argon2$<time>$<memory KiB>$<threads>$<key length>';

/** Parses PASSWORD_HASH_ALGO; throws an error naming the setting for anything else than argon2 with sane parameters. */
export function parsePasswordHashAlgo(value: string | undefined): PasswordHashParams {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'argon2') return DEFAULT_PASSWORD_HASH;
  const [algo, ...parts] = text.split('$');
  if (algo !== 'argon2') throw new Error(`PASSWORD_HASH_ALGO: unsupported algorithm "${algo}" (supported: ${SPELLING})`);
  const numbers = parts.map((p) => (/^\d{1,9}$/.test(p) ? Number(p) : NaN));
  const [timeCost = NaN, memoryCost = NaN, parallelism = NaN, outputLen = NaN] = numbers;
  if (numbers.length !== 4 || numbers.some(Number.isNaN)) throw new Error(`PASSWORD_HASH_ALGO: expected ${SPELLING}, got "${text}"`);
  // argon2's own bounds: at least one pass, 1-255 lanes, 8 KiB of memory per lane, a hash of 4 bytes or more.
  if (timeCost < 1) throw new Error('PASSWORD_HASH_ALGO: time must be at least 1');
  if (parallelism < 1 || parallelism > 255) throw new Error('PASSWORD_HASH_ALGO: threads must be between 1 and 255');
  if (memoryCost < 8 * parallelism) throw new Error('PASSWORD_HASH_ALGO: memory must be at least 8 KiB per thread');
  if (outputLen < 4 || outputLen > 1024) throw new Error('PASSWORD_HASH_ALGO: key length must be between 4 and 1024 bytes');
  return { timeCost, memoryCost, parallelism, outputLen };
}
