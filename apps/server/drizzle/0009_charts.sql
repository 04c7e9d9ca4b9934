CREATE TABLE "chart_drawings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"kind" text NOT NULL,
	"points" jsonb NOT NULL,
	"style" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chart_indicators" (
	"user_id" integer NOT NULL,
	"chart_key" text NOT NULL,
	"indicators" jsonb NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "chart_indicators_user_id_chart_key_pk" PRIMARY KEY("user_id","chart_key")
);
--> statement-breakpoint
ALTER TABLE "chart_drawings" ADD CONSTRAINT "chart_drawings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chart_indicators" ADD CONSTRAINT "chart_indicators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chart_drawings_user_symbol_idx" ON "chart_drawings" USING btree ("user_id","symbol","id");