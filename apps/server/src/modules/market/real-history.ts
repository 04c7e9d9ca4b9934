import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseOhlcvCsv, type Bar } from '@ct/domain';
import { REPO_ROOT } from '../../config.ts';

/** Folder of the real history shipped with the product. */
export const SHIPPED_HISTORY_DIR = path.join(REPO_ROOT, 'apps/server/data/market');

/** Reads a shipped OHLCV file; a broken shipped file is a bug, so it throws with the place. */
export function loadShippedHistory(file: string, dir = SHIPPED_HISTORY_DIR): Bar[] {
  const result = parseOhlcvCsv(readFileSync(path.join(dir, file), 'utf8'));
  if (!result.ok) {
    const { row, column, message } = result.error;
    throw new Error(`${file} row ${row} column ${column}: ${message}`);
  }
  return result.bars;
}
