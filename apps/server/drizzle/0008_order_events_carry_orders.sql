CREATE TABLE "account_exposure" (
	"uuid" text NOT NULL,
	"symbol" text NOT NULL,
	"cmd" smallint NOT NULL,
	"volume" numeric NOT NULL,
	"notional" numeric NOT NULL,
	CONSTRAINT "account_exposure_uuid_symbol_cmd_pk" PRIMARY KEY("uuid","symbol","cmd")
);
--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "from_state" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "symbol" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "pending_id" bigint;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "market_price" numeric(30, 10);--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "commission_fee" numeric(20, 2);--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "cmd" smallint;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "action_type" smallint;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "order_type" smallint;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "volume" numeric(20, 8);--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "requested_price" numeric(30, 10);--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "tp" numeric(30, 10);--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "sl" numeric(30, 10);--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "client_order_id" text;--> statement-breakpoint
ALTER TABLE "account_exposure" ADD CONSTRAINT "account_exposure_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Events appended before this migration: the first event of an order created it, later ones
-- moved a working (pending) order; symbol and pending id come from the order's log row.
UPDATE "order_events" e SET
	"from_state" = CASE WHEN e."id" = (SELECT min(f."id") FROM "order_events" f WHERE f."order_id" = e."order_id") THEN 'submitted' ELSE 'working' END,
	"symbol" = l."symbol",
	"pending_id" = l."pending_id"
FROM "order_logs" l WHERE l."id" = e."order_id";--> statement-breakpoint
-- The exposure of the positions open now.
INSERT INTO "account_exposure" ("uuid", "symbol", "cmd", "volume", "notional")
SELECT "uuid", "symbol", "cmd", sum("volume" - "settled_vol"), sum(("volume" - "settled_vol") * "price")
FROM "positions" WHERE "status" = 'open' GROUP BY "uuid", "symbol", "cmd";
