CREATE INDEX "jobs_group_started_idx" ON "jobs" USING btree ("queue","group_key","started_ms");--> statement-breakpoint
-- AI tasks waiting or running and running live runs move onto the job queue (modules/jobs):
-- each gets its job, queued, so that the first worker after the upgrade takes it up.
INSERT INTO "jobs" ("queue", "group_key", "batch_key", "payload", "state", "attempts", "max_attempts", "created_ms", "started_ms")
SELECT 'ai-task', 'user:' || "user_id", 'ai-task:' || "id", jsonb_build_object('taskId', "id"), 'queued', "claims", 5, "created_at" * 1000, "started_at" * 1000
FROM "ai_tasks" WHERE "status" IN ('PENDING', 'PROCESSING') ORDER BY "id";--> statement-breakpoint
INSERT INTO "jobs" ("queue", "group_key", "batch_key", "payload", "state", "attempts", "max_attempts", "created_ms")
SELECT 'live-run', 'user:' || "user_id", 'live-run:' || "id", jsonb_build_object('runId', "id"), 'queued', 0, 2000000000, "started_at"
FROM "live_runs" WHERE "status" = 'running' ORDER BY "started_at", "id";--> statement-breakpoint
ALTER TABLE "ai_tasks" DROP COLUMN "claims";--> statement-breakpoint
ALTER TABLE "ai_tasks" DROP COLUMN "lease_owner";--> statement-breakpoint
ALTER TABLE "ai_tasks" DROP COLUMN "lease_until_ms";--> statement-breakpoint
ALTER TABLE "live_runs" DROP COLUMN "lease_owner";--> statement-breakpoint
ALTER TABLE "live_runs" DROP COLUMN "lease_until_ms";