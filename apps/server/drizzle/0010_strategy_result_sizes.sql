ALTER TABLE "strategy_results" ADD COLUMN "size_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "strategy_results" ADD COLUMN "deal_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- results saved before the quota: their size and deal count, once
UPDATE "strategy_results" SET
	"size_bytes" = octet_length("deals"::text) + coalesce(octet_length("performance"::text), 0) + coalesce(octet_length("error"), 0) + coalesce(octet_length("logs"::text), 0),
	"deal_count" = jsonb_array_length("deals");
