/**
 * Domain events, published after the transaction that caused them commits.
 * Later features add variants here (issues, pushes, reviews …); subscribers switch on `type`.
 */
export type DomainEvent =
  | { type: 'user.created'; userId: number; actorId: number | null }
  | { type: 'user.updated'; userId: number; actorId: number | null; fields: string[] }
  | { type: 'user.deleted'; userId: number; login: string; actorId: number | null }
  | { type: 'user.passwordChanged'; userId: number; actorId: number | null }
  | { type: 'accessToken.created'; userId: number; tokenId: number; actorId: number | null }
  | { type: 'accessToken.deleted'; userId: number; tokenId: number; actorId: number | null }
  | { type: 'email.added'; userId: number; emails: string[] }
  | { type: 'email.deleted'; userId: number; emails: string[] }
  | { type: 'org.created'; orgId: number; actorId: number }
  | { type: 'org.updated'; orgId: number; actorId: number | null }
  | { type: 'org.deleted'; orgId: number; name: string; actorId: number | null }
  | { type: 'org.memberRemoved'; orgId: number; userId: number; actorId: number | null }
  | { type: 'team.created'; teamId: number; orgId: number; actorId: number | null }
  | { type: 'team.updated'; teamId: number; orgId: number; actorId: number | null }
  | { type: 'team.deleted'; teamId: number; orgId: number; actorId: number | null }
  | { type: 'team.memberAdded'; teamId: number; orgId: number; userId: number; actorId: number | null }
  | { type: 'team.memberRemoved'; teamId: number; orgId: number; userId: number; actorId: number | null }
  | { type: 'team.repoAdded'; teamId: number; orgId: number; repoId: number; actorId: number | null }
  | { type: 'team.repoRemoved'; teamId: number; orgId: number; repoId: number; actorId: number | null }
  | { type: 'user.blocked'; blockerId: number; blockeeId: number; actorId: number | null }
  | { type: 'user.unblocked'; blockerId: number; blockeeId: number; actorId: number | null }
  | { type: 'label.created'; labelId: number; orgId: number | null; repoId: number | null; actorId: number | null }
  | { type: 'label.updated'; labelId: number; orgId: number | null; repoId: number | null; actorId: number | null }
  | { type: 'label.deleted'; labelId: number; orgId: number | null; repoId: number | null; actorId: number | null };

export type DomainEventType = DomainEvent['type'];
