import { z } from 'zod';
import { identifierSchema, opaqueTextSchema } from '../api/text.ts';

/** A trading account as the client sees it (spec section 3, Trader). */
export const traderSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  level: z.number().int(),
  type: z.number().int(),
  token: z.string(),
  channel: z.number().int(),
});
export type Trader = z.infer<typeof traderSchema>;

/**
 * The user as returned by login (spec section 3, User). Times are epoch seconds;
 * `audit_status` 1 means approved.
 */
export const userSchema = z.object({
  id: z.number().int(),
  nick_name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  country: z.string().nullable(),
  channel: z.number().int(),
  audit_status: z.number().int(),
  audit_remark: z.string().nullable(),
  audit_at: z.number().int().nullable(),
  created_at: z.number().int().nullable(),
  updated_at: z.number().int().nullable(),
  traders: z.array(traderSchema),
});
export type User = z.infer<typeof userSchema>;

/** Body of POST /user/api/v1/account/login (spec section 7). */
export const loginRequestSchema = z.object({
  channel: z.number().int(),
  login_type: z.number().int(),
  user_name: identifierSchema(254),
  password: z.string().min(1).max(1024),
  device: z.number().int(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Answer of login: `status` 0 is success and `data[0]` is the user. */
export const loginResponseSchema = z.object({
  status: z.number().int(),
  msg: z.string(),
  data: z.array(userSchema),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Query of the trader check call: the account and its token. */
export const traderCredentialsSchema = z.object({
  uuid: identifierSchema(64),
  token: opaqueTextSchema(1, 256),
});
export type TraderCredentials = z.infer<typeof traderCredentialsSchema>;

/** `data` of GET /user/api/v1/account/session: the session's user id and login email. */
export const sessionInfoSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** `data` of GET /user/api/v1/account/trader: the account, without its token. */
export const traderInfoSchema = traderSchema.omit({ token: true });
export type TraderInfo = z.infer<typeof traderInfoSchema>;
