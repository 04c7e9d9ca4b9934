import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../db/connect.ts';
import { migrateDatabase } from '../db/migrate.ts';
import './provided.ts';
import { testTmpDir } from './tmp-dir.ts';

/**
 * Creates ONE migrated PGlite data directory per test run (initdb costs ~5 s and ~800 MB);
 * each test file copies it (test/helpers.ts) instead of creating its own.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = fs.mkdtempSync(path.join(testTmpDir(), 'ct-server-template-'));
  const dir = path.join(root, 'pglite');
  const database = await openPglite(dir);
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  project.provide('pgTemplateDir', dir);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
