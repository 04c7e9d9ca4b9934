CREATE TABLE "account_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"balance_after" numeric(20, 2) NOT NULL,
	"position_id" bigint,
	"settlement_id" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"uuid" text NOT NULL,
	"client_order_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"fingerprint" text NOT NULL,
	"http_status" integer NOT NULL,
	"body" json NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_uuid_client_order_id_pk" PRIMARY KEY("uuid","client_order_id")
);
--> statement-breakpoint
CREATE TABLE "order_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" text NOT NULL,
	"symbol" text NOT NULL,
	"cmd" smallint NOT NULL,
	"action_type" smallint NOT NULL,
	"order_type" smallint NOT NULL,
	"volume" numeric(20, 8) NOT NULL,
	"price" numeric(30, 10) NOT NULL,
	"market_price" numeric(30, 10) NOT NULL,
	"order_status" smallint NOT NULL,
	"created_at" bigint NOT NULL,
	"transact_time" bigint NOT NULL,
	"commission_fee" numeric(20, 2) DEFAULT '0' NOT NULL,
	"currency" text NOT NULL,
	"tp" numeric(30, 10) DEFAULT '0' NOT NULL,
	"sl" numeric(30, 10) DEFAULT '0' NOT NULL,
	"position_id" bigint,
	"pending_id" bigint,
	"message" text DEFAULT '' NOT NULL,
	"client_order_id" text
);
--> statement-breakpoint
CREATE TABLE "pending_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pending_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" text NOT NULL,
	"symbol" text NOT NULL,
	"cmd" smallint NOT NULL,
	"volume" numeric(20, 8) NOT NULL,
	"pend_price" numeric(30, 10) NOT NULL,
	"tp" numeric(30, 10) DEFAULT '0' NOT NULL,
	"sl" numeric(30, 10) DEFAULT '0' NOT NULL,
	"expire_type" text NOT NULL,
	"expires_at" bigint,
	"trigger_type" text NOT NULL,
	"status" text NOT NULL,
	"position_id" bigint,
	"comment" text DEFAULT '' NOT NULL,
	"client_order_id" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "pending_orders_cmd" CHECK ("pending_orders"."cmd" in (1, 2)),
	CONSTRAINT "pending_orders_status" CHECK ("pending_orders"."status" in ('working', 'filled', 'canceled', 'expired', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "positions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "positions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uuid" text NOT NULL,
	"symbol" text NOT NULL,
	"cmd" smallint NOT NULL,
	"volume" numeric(20, 8) NOT NULL,
	"settled_vol" numeric(20, 8) DEFAULT '0' NOT NULL,
	"price" numeric(30, 10) NOT NULL,
	"tp" numeric(30, 10) DEFAULT '0' NOT NULL,
	"sl" numeric(30, 10) DEFAULT '0' NOT NULL,
	"commission_fee" numeric(20, 2) NOT NULL,
	"storage" numeric(20, 2) DEFAULT '0' NOT NULL,
	"currency" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"client_order_id" text,
	"pending_id" bigint,
	"status" text NOT NULL,
	"close_type" smallint DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"closed_at" bigint,
	CONSTRAINT "positions_cmd" CHECK ("positions"."cmd" in (1, 2)),
	CONSTRAINT "positions_status" CHECK ("positions"."status" in ('open', 'closed')),
	CONSTRAINT "positions_volume" CHECK ("positions"."volume" > 0),
	CONSTRAINT "positions_settled_vol" CHECK ("positions"."settled_vol" >= 0 and "positions"."settled_vol" <= "positions"."volume")
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "settlements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"position_id" bigint NOT NULL,
	"uuid" text NOT NULL,
	"symbol" text NOT NULL,
	"open_cmd" smallint NOT NULL,
	"close_cmd" smallint NOT NULL,
	"open_price" numeric(30, 10) NOT NULL,
	"close_price" numeric(30, 10) NOT NULL,
	"settle_volume" numeric(20, 8) NOT NULL,
	"is_settled" smallint NOT NULL,
	"settle_date" integer NOT NULL,
	"settle_profit" numeric(20, 2) NOT NULL,
	"account_profit" numeric(20, 2) NOT NULL,
	"open_at" bigint NOT NULL,
	"close_at" bigint NOT NULL,
	"open_commission" numeric(20, 2) NOT NULL,
	"close_commission" numeric(20, 2) NOT NULL,
	"currency" text NOT NULL,
	"close_reason" smallint NOT NULL,
	"close_type" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trading_accounts" (
	"uuid" text PRIMARY KEY NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"starting_balance" numeric(20, 2) NOT NULL,
	"balance" numeric(20, 2) NOT NULL,
	"realized_pnl" numeric(20, 2) DEFAULT '0' NOT NULL,
	"commission_paid" numeric(20, 2) DEFAULT '0' NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_ledger" ADD CONSTRAINT "account_ledger_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_logs" ADD CONSTRAINT "order_logs_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_orders" ADD CONSTRAINT "pending_orders_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "positions" ADD CONSTRAINT "positions_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_uuid_trading_accounts_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."trading_accounts"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trading_accounts" ADD CONSTRAINT "trading_accounts_uuid_traders_uuid_fk" FOREIGN KEY ("uuid") REFERENCES "public"."traders"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_ledger_uuid_idx" ON "account_ledger" USING btree ("uuid","id");--> statement-breakpoint
CREATE INDEX "order_logs_uuid_id_idx" ON "order_logs" USING btree ("uuid","id");--> statement-breakpoint
CREATE INDEX "order_logs_pending_idx" ON "order_logs" USING btree ("pending_id");--> statement-breakpoint
CREATE INDEX "pending_orders_uuid_status_idx" ON "pending_orders" USING btree ("uuid","status");--> statement-breakpoint
CREATE INDEX "pending_orders_working_symbol_idx" ON "pending_orders" USING btree ("symbol") WHERE "pending_orders"."status" = 'working';--> statement-breakpoint
CREATE INDEX "positions_uuid_status_idx" ON "positions" USING btree ("uuid","status");--> statement-breakpoint
CREATE INDEX "positions_open_symbol_idx" ON "positions" USING btree ("symbol") WHERE "positions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "settlements_uuid_id_idx" ON "settlements" USING btree ("uuid","id");--> statement-breakpoint
CREATE INDEX "settlements_position_idx" ON "settlements" USING btree ("position_id");