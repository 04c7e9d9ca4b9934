CREATE TABLE "ai_task_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"task_id" integer NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"step_type" text NOT NULL,
	"retry_number" integer NOT NULL,
	"extra_data" jsonb,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ai_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	"task_type" text NOT NULL,
	"prompt" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"base_url" text NOT NULL,
	"api_key_enc" text,
	"symbol_id" text NOT NULL,
	"period" text NOT NULL,
	"client_id" text,
	"code" text,
	"backtest_result" jsonb,
	"error_message" text,
	"retry_count" integer DEFAULT 0 NOT NULL,
	"max_retries" integer NOT NULL,
	"claims" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until_ms" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"started_at" bigint,
	"finished_at" bigint
);
--> statement-breakpoint
ALTER TABLE "ai_task_messages" ADD CONSTRAINT "ai_task_messages_task_id_ai_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."ai_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_tasks" ADD CONSTRAINT "ai_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_task_messages_task_idx" ON "ai_task_messages" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "ai_tasks_user_idx" ON "ai_tasks" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ai_tasks_open_idx" ON "ai_tasks" USING btree ("status","id") WHERE "ai_tasks"."status" in ('PENDING', 'PROCESSING');