import { ValidationError } from '../../errors.ts';

const COLOR = /^#([\da-f]{3}|[\da-f]{6})$/;

/**
 * Gitea's label.NormalizeColor: trims and lower-cases, accepts an optional `#`, expands the 3-digit form,
 * and returns the 6 hex digits WITHOUT `#` (how we store and serve colours).
 * @throws ValidationError `invalid color: <input as normalised>` (Gitea's message; REST 422)
 */
export function normalizeColor(input: string): string {
  let color = input.trim().toLowerCase();
  if (color.length === 6 || color.length === 3) color = `#${color}`;
  if (!COLOR.test(color)) throw new ValidationError(`invalid color: ${color}`);
  if (color.length === 4) color = `#${color[1]}${color[1]}${color[2]}${color[2]}${color[3]}${color[3]}`;
  return color.slice(1);
}

/** The scope of a scoped (exclusive) label `scope/name`: the part before the last `/`, or null (Gitea ExclusiveScope). */
export function exclusiveScope(label: { name: string; exclusive: boolean }): string | null {
  if (!label.exclusive) return null;
  const i = label.name.lastIndexOf('/');
  if (i <= 0 || i === label.name.length - 1) return null;
  return label.name.slice(0, i);
}
