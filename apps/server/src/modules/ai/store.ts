import { eq } from 'drizzle-orm';
import { aiSettings, type AiSettingsRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';

export async function findAiSettings(db: Db, userId: number): Promise<AiSettingsRow | null> {
  const [row] = await db.select().from(aiSettings).where(eq(aiSettings.userId, userId)).limit(1);
  return row ?? null;
}

/** Inserts or replaces the user's one settings row. */
export async function upsertAiSettings(db: Db, row: AiSettingsRow): Promise<AiSettingsRow> {
  const [saved] = await db
    .insert(aiSettings)
    .values(row)
    .onConflictDoUpdate({
      target: aiSettings.userId,
      set: {
        provider: row.provider,
        baseUrl: row.baseUrl,
        model: row.model,
        apiKeyEnc: row.apiKeyEnc,
        updatedAt: row.updatedAt,
      },
    })
    .returning();
  if (!saved) throw new Error('ai settings upsert returned no row');
  return saved;
}
