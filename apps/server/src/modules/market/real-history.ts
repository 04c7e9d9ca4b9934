import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOhlcvCsv, type Bar } from '@ct/domain';

/** Folder of the real history shipped with the product (apps/server/data/market). */
export const SHIPPED_HISTORY_DIR = fileURLToPath(new URL('../../../data/market', import.meta.url));

/** Reads a shipped OHLCV file; a broken shipped file is a bug, so it throws with the place. */
export function loadShippedHistory(file: string, dir = SHIPPED_HISTORY_DIR): Bar[] {
  const result = parseOhlcvCsv(readFileSync(path.join(dir, file), 'utf8'));
  if (!result.ok) {
    const { row, column, message } = result.error;
    throw new Error(`${file} row ${row} column ${column}: ${message}`);
  }
  return result.bars;
}
