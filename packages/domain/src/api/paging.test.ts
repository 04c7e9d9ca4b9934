import { describe, expect, it } from 'vitest';
import { alertLogQuerySchema } from '../alerts/schemas.ts';
import { resultDealsQuerySchema, resultsQuerySchema } from '../backtest/schemas.ts';
import { liveRunEvaluationsQuerySchema } from '../live-runs/schemas.ts';
import { notificationsQuerySchema } from '../notifications/schemas.ts';
import { MAX_PAGE_SKIP, pageQuerySchema } from './paging.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : result.error!.issues.map((issue) => issue.message);

describe('pageQuerySchema', () => {
  const schema = pageQuerySchema({ max: 50, default: 20 });

  it('takes numbers or their text and fills in the defaults', () => {
    expect(schema.parse({})).toEqual({ skip: 0, limit: 20 });
    expect(schema.parse({ skip: '40', limit: '50' })).toEqual({ skip: 40, limit: 50 });
    expect(schema.parse({ skip: MAX_PAGE_SKIP, limit: 1 })).toEqual({
      skip: MAX_PAGE_SKIP,
      limit: 1,
    });
  });

  it.each([
    [{ skip: -1 }, 'skip must be at least 0'],
    [{ skip: MAX_PAGE_SKIP + 1 }, `skip must be at most ${MAX_PAGE_SKIP}`],
    [{ skip: '1.5' }, 'skip must be an integer'],
    [{ skip: 1.5 }, 'skip must be an integer'],
    [{ limit: 0 }, 'limit must be at least 1'],
    [{ limit: 51 }, 'limit must be at most 50'],
    [{ limit: 'x' }, 'limit must be an integer'],
  ])('refuses %j with "%s"', (query, message) => {
    expect(messagesOf(schema.safeParse(query))).toEqual([message]);
  });

  it('bounds skip by maxSkip when given', () => {
    const small = pageQuerySchema({ max: 10, default: 5, maxSkip: 100 });
    expect(messagesOf(small.safeParse({ skip: 101 }))).toEqual(['skip must be at most 100']);
  });

  it('is the query of every paged list, with the same messages', () => {
    const lists = [
      alertLogQuerySchema,
      liveRunEvaluationsQuerySchema,
      notificationsQuerySchema,
      resultsQuerySchema,
    ];
    for (const list of lists) {
      expect(messagesOf(list.safeParse({ skip: MAX_PAGE_SKIP + 1 }))).toEqual([
        `skip must be at most ${MAX_PAGE_SKIP}`,
      ]);
      expect(messagesOf(list.safeParse({ skip: 2.5 }))).toEqual(['skip must be an integer']);
    }
    expect(resultDealsQuerySchema.parse({})).toEqual({ skip: 0, limit: 100 });
    expect(resultsQuerySchema.parse({ symbol_id: 'GOOG' })).toEqual({
      symbol_id: 'GOOG',
      skip: 0,
      limit: 10,
    });
  });
});
