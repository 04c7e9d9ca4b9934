import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` (run in apps/server) writes SQL migrations to ./drizzle;
// the server applies them at start (src/db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
