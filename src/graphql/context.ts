import type { ServiceContext } from '../services/context.ts';
import type { SubscriptionSlots } from './limits/subscriptions.ts';

/** The GraphQL context: the service context of the request, and what subscriptions count their limit by. */
export interface GraphQLContext {
  cx: ServiceContext;
  /** Open subscriptions per account or client address (limits/subscriptions.ts). */
  subscriptionSlots: SubscriptionSlots;
  /** Who a subscription counts against: `user:<id>`, or `ip:<address>` for anonymous requests. */
  clientKey: string;
}
