import { z } from 'zod';
import { parseRoles, type Role } from './roles.ts';

/** Where this process stands in the deployment, as the environment gives it. */
export type DeploymentSettings = {
  /** ROLES (or `--role`): what this process runs; every role when absent. */
  roles: Role[];
  /** REDIS_URL: live publications and the quote cache shared by every node; null: in-process. */
  redisUrl: string | null;
};

/** ROLES, REDIS_URL: the environment this module reads (composed by config.ts). */
export const clusterEnv = z.object({
  ROLES: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^(rediss?|unix):\/\/./, 'must start with redis://, rediss:// or unix://')
    .optional(),
});

/** The roles and Redis; throws (naming ROLES) on an unknown role or an api/feed split without Redis. */
export function deploymentSettingsFromEnv(e: z.output<typeof clusterEnv>): DeploymentSettings {
  let roles: Role[];
  try {
    roles = parseRoles(e.ROLES);
  } catch (error) {
    throw new Error(`ROLES: ${(error as Error).message}`, { cause: error });
  }
  // an api node without a feed (or a feed without an api node) reaches the other only
  // through Redis: without it the api would have no quotes and the feed no listeners
  if (!e.REDIS_URL && roles.includes('api') !== roles.includes('feed')) {
    throw new Error('ROLES: api and feed in separate processes need REDIS_URL');
  }
  return { roles, redisUrl: e.REDIS_URL ?? null };
}
