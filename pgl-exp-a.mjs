import { PGlite } from '@electric-sql/pglite';
const t0 = Date.now();
const db = await PGlite.create(process.argv[2]);
console.log('open ms', Date.now() - t0, process.memoryUsage().rss / 1e6);
const r = await db.query('select 1 as x');
console.log(r.rows);
if (process.argv[3]) {
  await new Promise((r) => setTimeout(r, Number(process.argv[3])));
}
await db.close();
console.log('closed');
