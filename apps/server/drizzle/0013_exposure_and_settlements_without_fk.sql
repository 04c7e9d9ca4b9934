-- The account's exposure (written by every order and close) and settlements (written by
-- every close) name their account, and a settlement its position, without a foreign key,
-- as the rows of 0012 do: the trading pipeline writes them only under the account's row
-- lock (ACCOUNT_ROWS_WITHOUT_FK in src/db/schema/trading.ts). The exposure's check alone
-- was about a quarter of a market order's statement inside PostgreSQL.
ALTER TABLE "account_exposure" DROP CONSTRAINT "account_exposure_uuid_trading_accounts_uuid_fk";
--> statement-breakpoint
ALTER TABLE "settlements" DROP CONSTRAINT "settlements_position_id_positions_id_fk";
--> statement-breakpoint
ALTER TABLE "settlements" DROP CONSTRAINT "settlements_uuid_trading_accounts_uuid_fk";
