CREATE TABLE "backtest_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" text,
	"strategy_name" text,
	"filename" text NOT NULL,
	"symbol" text NOT NULL,
	"period" text NOT NULL,
	"code" text NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"error_kind" text,
	"logs" jsonb NOT NULL,
	"deals" jsonb NOT NULL,
	"performance" jsonb,
	"bar_count" integer NOT NULL,
	"elapsed_ms" double precision NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategies" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategy_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"strategy_id" integer NOT NULL,
	"symbol_id" text NOT NULL,
	"deals" jsonb NOT NULL,
	"performance" jsonb,
	"error" text,
	"logs" jsonb,
	"run_id" uuid,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "backtest_runs" ADD CONSTRAINT "backtest_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_results" ADD CONSTRAINT "strategy_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_results" ADD CONSTRAINT "strategy_results_strategy_id_strategies_id_fk" FOREIGN KEY ("strategy_id") REFERENCES "public"."strategies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "backtest_runs_run_id_key" ON "backtest_runs" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "backtest_runs_user_idx" ON "backtest_runs" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "strategies_user_name_key" ON "strategies" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "strategy_results_strategy_idx" ON "strategy_results" USING btree ("strategy_id","symbol_id","id");--> statement-breakpoint
CREATE INDEX "strategy_results_user_idx" ON "strategy_results" USING btree ("user_id");