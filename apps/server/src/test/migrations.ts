import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../db/migrate.ts';

type Journal = { entries: { tag: string; when: number }[] };

function journal(): Journal {
  return JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
}

/** When a migration was generated: drizzle's `created_at` of its row once applied. */
export function migrationTime(tag: string): number {
  const entry = journal().entries.find((e) => e.tag === tag);
  if (!entry) throw new Error(`no migration ${tag}`);
  return entry.when;
}

/**
 * The migrations up to `last` (its tag, e.g. '0015_jobs_and_optimizations'), as a folder in
 * `dir` the migrator reads: tests of an upgrade bring a database to the state before it.
 */
export function migrationsUpTo(dir: string, last: string): string {
  const out = path.join(dir, 'migrations');
  fs.mkdirSync(path.join(out, 'meta'), { recursive: true });
  const all = journal();
  const upTo = all.entries.findIndex((e) => e.tag === last);
  if (upTo < 0) throw new Error(`no migration ${last}`);
  all.entries = all.entries.slice(0, upTo + 1);
  fs.writeFileSync(path.join(out, 'meta', '_journal.json'), JSON.stringify(all));
  for (const entry of all.entries) {
    fs.copyFileSync(
      path.join(MIGRATIONS_DIR, `${entry.tag}.sql`),
      path.join(out, `${entry.tag}.sql`),
    );
  }
  return out;
}
