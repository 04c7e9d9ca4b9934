import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The live gateway's settings, as the environment gives them. */
export type GatewaySettings = {
  /** LIVE_TOKEN_SECRET: HS256 secret of the live tokens; shared by all nodes. */
  liveTokenSecret: string;
  /** CENTRIFUGO_API_URL and CENTRIFUGO_API_KEY: publish to a Centrifugo cluster; null: not used. */
  centrifugo: { apiUrl: string; apiKey: string } | null;
};

/** LIVE_TOKEN_SECRET, CENTRIFUGO_*: the environment this module reads (composed by config.ts). */
export const gatewayEnv = z.object({
  LIVE_TOKEN_SECRET: z.string().min(16).optional(),
  CENTRIFUGO_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  CENTRIFUGO_API_KEY: z.string().min(1).optional(),
});

/** The gateway's settings; throws when only one of the Centrifugo URL and key is set. */
export function gatewaySettingsFromEnv(e: z.output<typeof gatewayEnv>): GatewaySettings {
  if ((e.CENTRIFUGO_API_URL === undefined) !== (e.CENTRIFUGO_API_KEY === undefined)) {
    throw new Error('CENTRIFUGO_API_URL and CENTRIFUGO_API_KEY go together');
  }
  return {
    // one process by default: a random secret per start is enough (tokens live minutes)
    liveTokenSecret: e.LIVE_TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
    centrifugo:
      e.CENTRIFUGO_API_URL && e.CENTRIFUGO_API_KEY
        ? { apiUrl: e.CENTRIFUGO_API_URL, apiKey: e.CENTRIFUGO_API_KEY }
        : null,
  };
}
