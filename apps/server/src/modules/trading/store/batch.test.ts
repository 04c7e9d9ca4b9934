import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers.ts';
import { planKeptAfterGrowth } from '../../../test/plans.ts';
import { READ_BATCH, answerKey, lockAndReadBatch } from './batch.ts';

/*
 * A batch's read finds the stored answers of its orders' keys by the key's index however
 * many answers are stored: order placement must not slow with every order kept. (It did on
 * PGlite, which runs no ANALYZE: the lookup, planned as a join for an estimate of 100 keys,
 * scanned every stored answer, and the order rate of a run halved within 30 seconds.)
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const STORED = 20_000;

describe("a batch's read of stored answers", () => {
  it('probes the key index per wanted key, also in a plan made while no answer was stored', async () => {
    const wanted = JSON.stringify([
      { uuid: 'acct-1', client_order_id: 'k-17' },
      { uuid: 'acct-1', client_order_id: 'absent' },
    ]);
    const accounts = JSON.stringify(['acct-1']);
    const lines = await planKeptAfterGrowth(t.db, {
      types: ['json', 'json', 'int'],
      statement: READ_BATCH,
      before: () => `'${wanted}', '${accounts}', 1`,
      after: `'${wanted}', '${accounts}', 1`,
      grow: () =>
        t.db.execute(
          sql.raw(`insert into idempotency_keys
            (uuid, client_order_id, endpoint, fingerprint, http_status, body, created_at)
            select 'acct-' || (i % 16), 'k-' || i, 'open', 'f', 200, '{"ok":true}', 0
            from generate_series(1, ${STORED}) i`),
        ),
    });
    const text = lines.join('\n');
    expect(text).toContain('Index Scan using idempotency_keys_uuid_client_order_id_pk');
    expect(text).not.toContain('Seq Scan on idempotency_keys');

    const read = await t.db.transaction((tx) =>
      lockAndReadBatch(
        tx,
        [],
        [
          { uuid: 'acct-1', clientOrderId: 'k-17' },
          { uuid: 'acct-1', clientOrderId: 'absent' },
          { uuid: 'acct-2', clientOrderId: 'k-17' },
        ],
        2,
      ),
    );
    expect([...read.answers.keys()]).toEqual([answerKey('acct-1', 'k-17')]);
    expect(read.answers.get(answerKey('acct-1', 'k-17'))).toMatchObject({
      endpoint: 'open',
      httpStatus: 200,
    });
    expect(read.positionIds).toHaveLength(2);
  });
});
