import { accountFigures, isMarginLevelLow } from '@ct/domain';
import { rawQuery } from '../../db/raw.ts';
import type { TradingContext } from './context.ts';
import { exposureLines, figuresMarket } from './margin.ts';
import { conversionQuotes } from './pricing.ts';
import type { Exposure } from './store/positions.ts';

/** An account with open lots as the watch holds it. */
type Watched = { uuid: string; balance: number; exposure: Exposure[]; warned: boolean };

const WATCHED = `
select a.uuid, a.balance::text as balance, a.margin_warned,
       e.symbol, e.cmd, e.volume::text as volume, e.notional::text as notional
from account_exposure e join trading_accounts a on a.uuid = e.uuid
where e.volume > 0`;

// the flag moves only from the value the watch saw: one feed's write wins, the other's is a no-op
const FLIP = `
update trading_accounts set margin_warned = $2
where uuid = $1 and margin_warned = $3
returning uuid`;

/**
 * The margin watch of the trigger engine (docs/architecture.md, "Notifications"): on a tick
 * of a symbol, the margin level of each account holding it (domain accountFigures at the
 * published quotes, as the account summary computes it). Falling below the warning level
 * flips the account's `margin_warned` with a conditional update and records a
 * `margin_warning` notification in the same transaction; rising back to it flips it back.
 * So a warning is told once per crossing below, not on every tick below, and a feed that
 * takes over reads the flag the previous one wrote. Balances and open lots are read from
 * the database by `load` (the engine's load and reload, and after its own fills and closes).
 */
export class MarginWatch {
  private accounts = new Map<string, Watched>();
  private bySymbol = new Map<string, Set<string>>();

  constructor(
    private readonly ctx: TradingContext,
    private readonly warningLevel: number,
  ) {}

  /** Does some watched account hold the symbol? */
  watches(symbol: string): boolean {
    return this.bySymbol.has(symbol);
  }

  /** (Re)reads every account with open lots: balance, lots per symbol and side, the flag. */
  async load(): Promise<void> {
    const rows = await rawQuery(this.ctx.db, WATCHED, []);
    const accounts = new Map<string, Watched>();
    const bySymbol = new Map<string, Set<string>>();
    for (const row of rows) {
      const uuid = String(row.uuid);
      let account = accounts.get(uuid);
      if (!account) {
        account = {
          uuid,
          balance: Number(row.balance),
          exposure: [],
          warned: row.margin_warned === true,
        };
        accounts.set(uuid, account);
      }
      const symbol = String(row.symbol);
      account.exposure.push({
        symbol,
        cmd: Number(row.cmd),
        volume: Number(row.volume),
        notional: Number(row.notional),
      });
      let holders = bySymbol.get(symbol);
      if (!holders) {
        holders = new Set();
        bySymbol.set(symbol, holders);
      }
      holders.add(uuid);
    }
    this.accounts = accounts;
    this.bySymbol = bySymbol;
  }

  /** The margin levels of the accounts holding `symbol`, at the quotes published now. */
  async check(symbol: string): Promise<void> {
    const holders = this.bySymbol.get(symbol);
    if (!holders) return;
    const nowMs = this.ctx.now();
    const market = figuresMarket(this.ctx, nowMs, conversionQuotes(this.ctx.market, nowMs));
    for (const uuid of [...holders]) {
      const account = this.accounts.get(uuid);
      if (!account) continue;
      const { marginLevel } = accountFigures(
        account.balance,
        exposureLines(account.exposure),
        market,
      );
      const low = isMarginLevelLow(marginLevel, this.warningLevel);
      if (low === account.warned) continue;
      try {
        await this.flip(account, low, marginLevel ?? 0);
      } catch (error) {
        // tried again on the account's next tick
        this.ctx.log.error({ err: error, uuid }, 'margin watch failed');
      }
    }
  }

  private async flip(account: Watched, low: boolean, level: number): Promise<void> {
    const { ctx } = this;
    const publish = await ctx.db.transaction(async (tx) => {
      const moved = await rawQuery(tx, FLIP, [account.uuid, low, !low]);
      if (moved.length === 0 || !low || !ctx.notifyMarginWarning) return null;
      return ctx.notifyMarginWarning(tx, account.uuid, {
        level,
        warningLevel: this.warningLevel,
        at: ctx.now(),
      });
    });
    // not moved: the database holds `low` already (another feed wrote it)
    account.warned = low;
    publish?.();
  }
}
