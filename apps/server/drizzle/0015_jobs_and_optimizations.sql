CREATE TABLE "jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"queue" text NOT NULL,
	"group_key" text NOT NULL,
	"batch_key" text,
	"payload" jsonb NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"lease_owner" text,
	"lease_until_ms" bigint,
	"created_ms" bigint NOT NULL,
	"started_ms" bigint,
	"finished_ms" bigint,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "optimization_trials" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "optimization_trials_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"optimization_id" text NOT NULL,
	"stage" text NOT NULL,
	"index" integer NOT NULL,
	"params" jsonb NOT NULL,
	"status" text NOT NULL,
	"performance" jsonb,
	"score" double precision,
	"returns" jsonb,
	"detail" jsonb,
	"error" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"finished_ms" bigint
);
--> statement-breakpoint
CREATE TABLE "optimizations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"strategy_name" text,
	"code" text NOT NULL,
	"symbol" text NOT NULL,
	"period" text NOT NULL,
	"bars" jsonb NOT NULL,
	"objective" text NOT NULL,
	"method" text NOT NULL,
	"request" jsonb NOT NULL,
	"status" text NOT NULL,
	"trials_total" integer NOT NULL,
	"trials_done" integer DEFAULT 0 NOT NULL,
	"summary" jsonb,
	"error" text,
	"created_ms" bigint NOT NULL,
	"started_ms" bigint,
	"finished_ms" bigint
);
--> statement-breakpoint
ALTER TABLE "optimization_trials" ADD CONSTRAINT "optimization_trials_optimization_id_optimizations_id_fk" FOREIGN KEY ("optimization_id") REFERENCES "public"."optimizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimizations" ADD CONSTRAINT "optimizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_queue_state_idx" ON "jobs" USING btree ("queue","state","id");--> statement-breakpoint
CREATE INDEX "jobs_batch_idx" ON "jobs" USING btree ("batch_key");--> statement-breakpoint
CREATE UNIQUE INDEX "optimization_trials_key" ON "optimization_trials" USING btree ("optimization_id","stage","index");--> statement-breakpoint
CREATE INDEX "optimization_trials_done_idx" ON "optimization_trials" USING btree ("optimization_id","status");--> statement-breakpoint
CREATE INDEX "optimizations_user_idx" ON "optimizations" USING btree ("user_id","created_ms");