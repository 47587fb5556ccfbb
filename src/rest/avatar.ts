import { createHash } from 'node:crypto';

/** A deterministic 5×5 symmetric identicon (SVG) for an avatar hash, so avatar_url always resolves offline. */
export function renderIdenticon(seed: string, size = 300): string {
  const digest = createHash('sha256').update(seed).digest();
  const hue = ((digest[0] ?? 0) * 360) / 256;
  const cells: string[] = [];
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      if (((digest[1 + y * 3 + x] ?? 0) & 1) === 0) continue;
      for (const cx of x === 2 ? [2] : [x, 4 - x]) cells.push(`<rect x="${cx * 50 + 25}" y="${y * 50 + 25}" width="50" height="50"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 300 300"><rect width="300" height="300" fill="#f0f0f0"/><g fill="hsl(${hue.toFixed(0)},55%,50%)">${cells.join('')}</g></svg>`;
}
