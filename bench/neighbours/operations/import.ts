import { minuteCsv, post } from '../payloads.ts';
import type { HeavyOperation } from '../types.ts';

const ROWS = 100_000;
let runs = 0;

export const operation: HeavyOperation = {
  name: 'CSV import, 100,000 rows (5 MiB)',
  async run(context) {
    runs += 1;
    await post(
      context,
      '/api/market/imports',
      JSON.stringify({ name: `bench${runs}`, csv: minuteCsv(ROWS) }),
    );
  },
};
