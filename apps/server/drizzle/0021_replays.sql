CREATE TABLE "replays" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"period" text NOT NULL,
	"start_time" bigint NOT NULL,
	"cursor_time" bigint NOT NULL,
	"steps" integer DEFAULT 0 NOT NULL,
	"strategy_name" text,
	"code" text,
	"initial_balance" double precision NOT NULL,
	"actions" jsonb NOT NULL,
	"evaluations" jsonb NOT NULL,
	"next_id" integer DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "replays" ADD CONSTRAINT "replays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replays_user_idx" ON "replays" USING btree ("user_id","updated_at");