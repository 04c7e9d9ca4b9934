CREATE TABLE "live_run_evaluations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_run_evaluations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"bar_time" bigint NOT NULL,
	"at" bigint NOT NULL,
	"bars" integer NOT NULL,
	"wanted" jsonb NOT NULL,
	"orders" jsonb NOT NULL,
	"error" text,
	"printed" jsonb NOT NULL,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_run_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_run_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"client_order_id" text NOT NULL,
	"bar_time" bigint NOT NULL,
	"action" text NOT NULL,
	"cmd" integer NOT NULL,
	"volume" double precision NOT NULL,
	"wanted_key" text,
	"position_id" text,
	"status" text NOT NULL,
	"price" double precision,
	"reference" double precision,
	"strategy_price" double precision NOT NULL,
	"commission" double precision DEFAULT 0 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"trader_uuid" text NOT NULL,
	"strategy_name" text NOT NULL,
	"task_id" integer,
	"code" text NOT NULL,
	"symbol" text NOT NULL,
	"period" text NOT NULL,
	"lots" double precision NOT NULL,
	"max_positions" integer NOT NULL,
	"status" text NOT NULL,
	"start_bar_time" bigint NOT NULL,
	"started_at" bigint NOT NULL,
	"stopped_at" bigint,
	"evaluations" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"max_failures" integer NOT NULL,
	"error" text,
	"last_bar_time" bigint,
	"last_evaluation_at" bigint,
	"lease_owner" text,
	"lease_until_ms" bigint,
	CONSTRAINT "live_runs_status" CHECK ("live_runs"."status" in ('running', 'stopped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "live_run_evaluations" ADD CONSTRAINT "live_run_evaluations_run_id_live_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."live_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_run_orders" ADD CONSTRAINT "live_run_orders_run_id_live_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."live_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_runs" ADD CONSTRAINT "live_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_runs" ADD CONSTRAINT "live_runs_trader_uuid_traders_uuid_fk" FOREIGN KEY ("trader_uuid") REFERENCES "public"."traders"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "live_run_evaluations_bar_idx" ON "live_run_evaluations" USING btree ("run_id","bar_time");--> statement-breakpoint
CREATE UNIQUE INDEX "live_run_orders_key_idx" ON "live_run_orders" USING btree ("run_id","client_order_id");--> statement-breakpoint
CREATE INDEX "live_run_orders_position_idx" ON "live_run_orders" USING btree ("run_id","position_id");--> statement-breakpoint
CREATE INDEX "live_runs_user_idx" ON "live_runs" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "live_runs_running_idx" ON "live_runs" USING btree ("status") WHERE "live_runs"."status" = 'running';