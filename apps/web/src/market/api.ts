import {
  envelopeSchema,
  instrumentGroupTupleSchema,
  klineSchema,
  marketSchema,
  parseInstrumentGroups,
  type InstrumentGroup,
  type Kline,
  type Market,
  type Period,
} from '@ct/domain';
import { z } from 'zod';
import { http } from '../api/client';

/** Bars of the first load and of each history page (spec section 9). */
export const LATEST_BARS = 500;
export const HISTORY_BARS = 300;

const groupsSchema = z.array(instrumentGroupTupleSchema);

/** The instrument groups (GET /trading/symbol/groups answers the tuple array itself). */
export async function fetchInstrumentGroups(): Promise<InstrumentGroup[]> {
  return parseInstrumentGroups(await http.get('/trading/symbol/groups', { schema: groupsSchema }));
}

const symbolListSchema = envelopeSchema(
  z
    .object({ lists: z.array(marketSchema) })
    .loose()
    .nullable(),
);

/** Markets with their full instruments (is_trading, tick size, limits). */
export async function fetchSymbolList(): Promise<Market[]> {
  const answer = await http.get('/trading/symbol/list', {
    params: { channel: 1, device: 2 },
    schema: symbolListSchema,
  });
  if (answer.code !== 0 || !answer.data) throw new Error(answer.msg);
  return answer.data.lists;
}

const klineAnswerSchema = envelopeSchema(
  z
    .object({ lists: z.array(klineSchema) })
    .loose()
    .nullable(),
);

/**
 * Bars of an instrument, oldest first: the newest `limit` (500 by default), or with
 * `lastId` (a bar id) the `limit` bars strictly older than it (300 by default).
 */
export async function fetchKlines(
  symbol: string,
  period: Period,
  options: { lastId?: number; limit?: number; signal?: AbortSignal } = {},
): Promise<Kline[]> {
  const history = options.lastId !== undefined;
  const answer = await http.get('/trading/kline/lists', {
    params: {
      symbol,
      cycel: period,
      last_id: options.lastId,
      limit: options.limit ?? (history ? HISTORY_BARS : LATEST_BARS),
    },
    schema: klineAnswerSchema,
    signal: options.signal,
  });
  if (answer.code !== 0 || !answer.data) throw new Error(answer.msg);
  return answer.data.lists;
}
