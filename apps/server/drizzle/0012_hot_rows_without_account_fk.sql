-- The rows every order writes name their account without a foreign key: the trading
-- pipeline writes them only under the account's row lock (ACCOUNT_ROWS_WITHOUT_FK in
-- src/db/schema/trading.ts), and the checks cost five queries per market order. The
-- order log's index by pending order leaves out market orders' rows (no pending id).
ALTER TABLE "account_ledger" DROP CONSTRAINT "account_ledger_uuid_trading_accounts_uuid_fk";
--> statement-breakpoint
ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_uuid_trading_accounts_uuid_fk";
--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_uuid_trading_accounts_uuid_fk";
--> statement-breakpoint
ALTER TABLE "order_logs" DROP CONSTRAINT "order_logs_uuid_trading_accounts_uuid_fk";
--> statement-breakpoint
ALTER TABLE "positions" DROP CONSTRAINT "positions_uuid_trading_accounts_uuid_fk";
--> statement-breakpoint
DROP INDEX "order_logs_pending_idx";--> statement-breakpoint
CREATE INDEX "order_logs_pending_idx" ON "order_logs" USING btree ("pending_id") WHERE "order_logs"."pending_id" is not null;