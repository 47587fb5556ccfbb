import type { TokenScope } from './scope.ts';

/** How the viewer authenticated. Token scopes apply only to `token`. */
export interface AuthInfo {
  method: 'anonymous' | 'password' | 'token' | 'system';
  scope: TokenScope | null;
  tokenId: number | null;
  /** The admin who used Sudo, when the viewer is impersonated. */
  sudoerId: number | null;
}
