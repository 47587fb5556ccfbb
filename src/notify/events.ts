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
  | { type: 'email.deleted'; userId: number; emails: string[] };

export type DomainEventType = DomainEvent['type'];
