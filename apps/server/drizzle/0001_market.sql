CREATE TABLE "imported_bars" (
	"instrument_id" integer NOT NULL,
	"time" bigint NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume" double precision NOT NULL,
	CONSTRAINT "imported_bars_instrument_id_time_pk" PRIMARY KEY("instrument_id","time")
);
--> statement-breakpoint
CREATE TABLE "imported_instruments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"resolution" text NOT NULL,
	"bar_count" integer NOT NULL,
	"first_time" bigint NOT NULL,
	"last_time" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imported_bars" ADD CONSTRAINT "imported_bars_instrument_id_imported_instruments_id_fk" FOREIGN KEY ("instrument_id") REFERENCES "public"."imported_instruments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_instruments" ADD CONSTRAINT "imported_instruments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "imported_instruments_symbol_idx" ON "imported_instruments" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "imported_instruments_user_idx" ON "imported_instruments" USING btree ("user_id");