import { readFileSync } from 'node:fs';

/** The file of the Default strategy (a moving-average crossover honouring the contract). */
export const DEFAULT_STRATEGY_FILE = new URL('./default_strategy.py', import.meta.url);

let cached: string | null = null;

/** The template code: GET /api/strategy/template and the built-in Default strategy. */
export function defaultStrategyCode(): string {
  cached ??= readFileSync(DEFAULT_STRATEGY_FILE, 'utf8');
  return cached;
}
