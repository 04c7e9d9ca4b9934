ALTER TABLE "backtest_runs" ADD COLUMN "per_symbol" jsonb;--> statement-breakpoint
ALTER TABLE "backtest_runs" ADD COLUMN "feeds" jsonb;--> statement-breakpoint
ALTER TABLE "strategy_results" ADD COLUMN "per_symbol" jsonb;--> statement-breakpoint
ALTER TABLE "strategy_results" ADD COLUMN "feeds" jsonb;--> statement-breakpoint
ALTER TABLE "live_runs" ADD COLUMN "feeds" jsonb;--> statement-breakpoint
ALTER TABLE "replays" ADD COLUMN "feeds" jsonb;