CREATE TABLE "backtest_run_deals" (
	"run_id" uuid NOT NULL,
	"user_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"deals" jsonb NOT NULL,
	CONSTRAINT "backtest_run_deals_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "backtest_runs" ADD COLUMN "deal_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backtest_run_deals" ADD CONSTRAINT "backtest_run_deals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- runs kept before: their deals in pieces of 500 (DEALS_PER_CHUNK), in order, once
INSERT INTO "backtest_run_deals" ("run_id", "user_id", "seq", "deals")
SELECT r."run_id", r."user_id", (d."ord" - 1) / 500, jsonb_agg(d."deal" ORDER BY d."ord")
FROM "backtest_runs" r, jsonb_array_elements(r."deals") WITH ORDINALITY AS d("deal", "ord")
GROUP BY r."run_id", r."user_id", (d."ord" - 1) / 500;--> statement-breakpoint
UPDATE "backtest_runs" SET "deal_count" = jsonb_array_length("deals");--> statement-breakpoint
ALTER TABLE "backtest_runs" DROP COLUMN "deals";