import { z } from 'zod';

/** Answer of GET /api/live/token. */
export const liveTokenSchema = z.object({
  /** Connection token of the gateway (sub = user id). */
  connectToken: z.string(),
  /** The account's private channel: `account:{uuid}`. */
  channel: z.string(),
  /** Subscription token of that channel. */
  subscriptionToken: z.string(),
  /** Expiry of both tokens, epoch seconds. */
  expiresAt: z.number().int(),
});
export type LiveToken = z.infer<typeof liveTokenSchema>;

/** The private live channel of a trading account. */
export const accountChannel = (uuid: string) => `account:${uuid}`;
