ALTER TABLE "jobs" ADD COLUMN "claim_id" bigint;--> statement-breakpoint
ALTER TABLE "optimization_trials" ADD COLUMN "returns_f64" "bytea";