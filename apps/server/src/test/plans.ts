import { sql } from 'drizzle-orm';
import type { Db } from '../db/types.ts';

/**
 * The plan the database keeps for `statement` once it ran while its tables were small: the
 * statement is prepared and run more than the five times after which a plan for any values may
 * be kept, `grow` then fills its tables, and the same execution is explained (run, rolled
 * back). PGlite runs no ANALYZE, so nothing ever makes it plan such a statement again: the
 * lines say whether the kept plan still reads only what it needs.
 */
export async function planKeptAfterGrowth(
  db: Db,
  options: {
    /** The statement's parameter types, e.g. `['json', 'int']`. */
    types: readonly string[];
    statement: string;
    /** Its arguments as SQL literals, for the runs before `grow` and for the explained one. */
    before: (run: number) => string;
    after: string;
    grow: () => Promise<unknown>;
  },
): Promise<string[]> {
  await db.execute(
    sql.raw(`prepare plan_probe(${options.types.join(', ')}) as ${options.statement}`),
  );
  try {
    await db.execute(sql.raw('begin'));
    for (let run = 0; run < 8; run++) {
      await db.execute(sql.raw(`execute plan_probe(${options.before(run)})`));
    }
    await db.execute(sql.raw('rollback'));
    await options.grow();
    await db.execute(sql.raw('begin'));
    const plan = await db.execute(sql.raw(`explain analyze execute plan_probe(${options.after})`));
    await db.execute(sql.raw('rollback'));
    return (plan as unknown as { rows: { 'QUERY PLAN': string }[] }).rows.map(
      (row) => row['QUERY PLAN'],
    );
  } finally {
    await db.execute(sql.raw('deallocate plan_probe'));
  }
}
