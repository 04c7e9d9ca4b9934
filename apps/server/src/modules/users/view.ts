import type { Trader, User } from '@ct/domain';
import type { TraderRow, UserRow } from '../../db/schema.ts';

/** The user as the login call returns it (spec section 3); times in epoch seconds. */
export function toUserView(user: UserRow, traders: Trader[]): User {
  return {
    id: user.id,
    nick_name: user.nickName,
    phone: user.phone,
    email: user.email,
    country: user.country,
    channel: user.channel,
    audit_status: user.auditStatus,
    audit_remark: user.auditRemark,
    audit_at: user.auditAt,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    traders,
  };
}

/** A trading account with the token issued to it by this login. */
export function toTraderView(trader: TraderRow, token: string): Trader {
  return {
    uuid: trader.uuid,
    name: trader.name,
    level: trader.level,
    type: trader.type,
    token,
    channel: trader.channel,
  };
}
