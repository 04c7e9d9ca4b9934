CREATE TABLE "alert_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"alert_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"kind" text NOT NULL,
	"condition" text NOT NULL,
	"price" double precision NOT NULL,
	"tick_time" bigint NOT NULL,
	"fired_at" bigint NOT NULL,
	"message" text NOT NULL,
	"webhook_url" text,
	"webhook_state" text,
	"webhook_attempts" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_webhook_secrets" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"kind" text NOT NULL,
	"condition" text NOT NULL,
	"level" double precision,
	"upper" double precision,
	"lower" double precision,
	"drawing_id" integer,
	"indicator" jsonb,
	"period" text NOT NULL,
	"frequency" text NOT NULL,
	"expires_at" bigint,
	"message" text NOT NULL,
	"webhook_url" text,
	"status" text NOT NULL,
	"side" smallint,
	"fired_count" integer DEFAULT 0 NOT NULL,
	"last_fired_at" bigint,
	"last_fired_bar" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_log" ADD CONSTRAINT "alert_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_webhook_secrets" ADD CONSTRAINT "alert_webhook_secrets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_drawing_id_chart_drawings_id_fk" FOREIGN KEY ("drawing_id") REFERENCES "public"."chart_drawings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_log_user_idx" ON "alert_log" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "alerts_user_idx" ON "alerts" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "alerts_status_idx" ON "alerts" USING btree ("status");