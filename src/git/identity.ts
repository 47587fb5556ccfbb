import { InvalidArgumentError } from '../errors.ts';

/** Who made a commit and when; `tz` is git's `+HHMM` offset (default `+0000`). */
export interface GitIdentity {
  name: string;
  email: string;
  when: Date;
  tz?: string;
}

/** git's environment for an author or committer. @throws InvalidArgumentError for names git would mangle */
export function identityEnv(kind: 'AUTHOR' | 'COMMITTER', who: GitIdentity): Record<string, string> {
  const tz = who.tz ?? '+0000';
  const seconds = Math.floor(who.when.getTime() / 1000);
  if (!who.name.trim() || /[<>\n\0]/.test(who.name) || /[<>\n\0]/.test(who.email) || !/^[+-]\d{4}$/.test(tz) || !Number.isFinite(seconds)) {
    throw new InvalidArgumentError(`invalid ${kind.toLowerCase()} identity`, { name: who.name, email: who.email, tz });
  }
  return { [`GIT_${kind}_NAME`]: who.name, [`GIT_${kind}_EMAIL`]: who.email, [`GIT_${kind}_DATE`]: `@${seconds} ${tz}` };
}
