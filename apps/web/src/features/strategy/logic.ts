import { MAX_SERVER_LOADED_BARS, formatMoney, wouldBlankSavedCode, type Deal } from '@ct/domain';
import dayjs from 'dayjs';
import type { ChartMarker } from '../../shared/chartMarkers';
import { strategy as messages } from '../../i18n/defaults/strategy';

/** The built-in strategy's name; it is never saved, modified or auto-saved. */
export const DEFAULT_STRATEGY = 'Default Strategy';
/** Auto-save waits this long after the last edit (spec section 9). */
export const AUTO_SAVE_DEBOUNCE_MS = 1500;
/** The save indicator returns to idle this long after success or failure. */
export const INDICATOR_RESET_MS = 1500;
export const RUN_HISTORY_PAGE_SIZE = 10;
export const TRADE_PAGE_SIZE = 5;

export function isDefaultStrategy(name: string | null | undefined): boolean {
  if (!name) return false;
  const lower = name.trim().toLowerCase();
  return lower === 'default' || lower === 'default strategy';
}

export const BUY_COLOR = '#26a69a';
export const SELL_COLOR = '#ef5350';

/**
 * Chart markers of deals: OB (open buy) / OS (open sell) at the opening bar, CB / CS at the
 * closing bar (a buy is closed by a sell: CS; a sell by a buy: CB). Buys below the bar with
 * an up arrow, sells above with a down arrow. Sorted by time as the chart requires.
 */
export function markersFromDeals(deals: readonly Deal[]): ChartMarker[] {
  const markers: ChartMarker[] = [];
  const d = messages.strategy.dealMarker;
  for (const deal of deals) {
    const buy = deal.lots > 0;
    const qty = String(deal.qty);
    markers.push({
      time: deal.start,
      position: buy ? 'belowBar' : 'aboveBar',
      shape: buy ? 'arrowUp' : 'arrowDown',
      color: buy ? BUY_COLOR : SELL_COLOR,
      text: buy ? 'OB' : 'OS',
      detail: d.open(buy ? 'OB' : 'OS', buy, qty, String(deal.open_price)),
    });
    if (deal.end !== null && deal.status === 'YES') {
      markers.push({
        time: deal.end,
        position: buy ? 'aboveBar' : 'belowBar',
        shape: buy ? 'arrowDown' : 'arrowUp',
        color: buy ? SELL_COLOR : BUY_COLOR,
        text: buy ? 'CS' : 'CB',
        detail: d.close(
          buy ? 'CS' : 'CB',
          !buy,
          qty,
          String(deal.close_price),
          formatMoney(deal.profit, { signed: true }),
        ),
      });
    }
  }
  return markers.sort((a, b) => a.time - b.time);
}

/** 'skipped': an auto-save that would have replaced saved code with empty code. */
export type SaveIndicator = 'idle' | 'saving' | 'success' | 'error' | 'skipped';

/**
 * Auto-save of the selected strategy: each edit restarts a 1500 ms debounce; then `save`
 * runs, the indicator shows saving, then success or error, and returns to idle 1.5 s later.
 * Default is never auto-saved. Blank code never replaces a strategy's non-blank saved code:
 * the save is skipped and the indicator says so; only an explicit, confirmed save may do that.
 * What the server holds is read from `known` (the workbench passes the query cache of the
 * strategy list, which every save writes); without it the saver keeps its own record (the
 * listed codes, then its own and other saves).
 */
export class AutoSaver {
  private debounce: ReturnType<typeof setTimeout> | null = null;
  private pending: { name: string; code: string } | null = null;
  private reset: ReturnType<typeof setTimeout> | null = null;
  private state: SaveIndicator = 'idle';
  private saved = new Map<string, string>();

  constructor(
    private readonly save: (name: string, code: string) => Promise<unknown>,
    private readonly onState: (state: SaveIndicator, name: string) => void,
    private readonly known?: (name: string) => string | undefined,
  ) {}

  get indicator(): SaveIndicator {
    return this.state;
  }

  /** What the server holds for each saved strategy (a fresh list replaces all). */
  setSavedList(list: readonly { name: string; code: string }[]): void {
    this.saved = new Map(list.map((s) => [s.name, s.code]));
  }

  /** `name` was saved with `code` (or deleted: null). */
  setSaved(name: string, code: string | null): void {
    if (code === null) this.saved.delete(name);
    else this.saved.set(name, code);
  }

  /** The code the server holds for `name`, if known. */
  savedCode(name: string): string | undefined {
    return this.known ? this.known(name) : this.saved.get(name);
  }

  /** An edit of `name`'s code. */
  edited(name: string | null, code: string): void {
    if (!name || isDefaultStrategy(name)) return;
    this.cancel();
    this.pending = { name, code };
    this.debounce = setTimeout(() => void this.flush(), AUTO_SAVE_DEBOUNCE_MS);
  }

  /**
   * Saves a pending edit now (before the selection changes or the editor closes); resolves
   * with its outcome, or null when nothing was pending.
   */
  async flush(): Promise<SaveIndicator | null> {
    const pending = this.pending;
    this.cancel();
    return pending ? this.run(pending.name, pending.code) : null;
  }

  /** Drops a pending save. */
  cancel(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = null;
    this.pending = null;
  }

  dispose(): void {
    this.cancel();
    if (this.reset) clearTimeout(this.reset);
    this.reset = null;
  }

  private set(state: SaveIndicator, name: string): void {
    this.state = state;
    this.onState(state, name);
  }

  private async run(name: string, code: string): Promise<SaveIndicator> {
    if (this.reset) clearTimeout(this.reset);
    this.reset = null;
    let outcome: SaveIndicator;
    if (wouldBlankSavedCode(this.savedCode(name), code)) {
      outcome = 'skipped';
    } else {
      this.set('saving', name);
      outcome = 'success';
      try {
        await this.save(name, code);
        this.saved.set(name, code);
      } catch {
        outcome = 'error';
      }
    }
    this.set(outcome, name);
    this.reset = setTimeout(() => {
      this.reset = null;
      this.set('idle', name);
    }, INDICATOR_RESET_MS);
    return outcome;
  }
}

/** Why `name` cannot be the name of a new strategy, or null when it can. */
export function newStrategyNameProblem(name: string): string | null {
  if (!name.trim()) return messages.strategy.namePlaceholder;
  if (isDefaultStrategy(name)) return messages.strategy.defaultReadOnly;
  return null;
}

/**
 * Why `bars` cannot be the bar count of a run on the chart's bars, or null when it can: a
 * whole number from 1 to MAX_SERVER_LOADED_BARS (null: the field is empty).
 */
export function barsProblem(bars: number | null): string | null {
  if (bars === null || Number.isNaN(bars)) return messages.strategy.barsRequired;
  if (!Number.isInteger(bars) || bars < 1 || bars > MAX_SERVER_LOADED_BARS) {
    return messages.strategy.barsRange;
  }
  return null;
}

/** A version's save time (epoch seconds) as the versions list and the restore notice show it. */
export function versionTime(seconds: number): string {
  return dayjs(seconds * 1000).format('YYYY-MM-DD HH:mm:ss');
}

/** A client id for the log socket: letters, digits and dashes. */
export function newClientId(): string {
  const random = Math.random().toString(36).slice(2, 10);
  return `strategy-${Date.now().toString(36)}-${random}`;
}

/** The instrument a deal of a run on several feeds trades (none: the first feed). */
export function dealCode(deal: Deal): string | null {
  const code = (deal as Deal & { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}
