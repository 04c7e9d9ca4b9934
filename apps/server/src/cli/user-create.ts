import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/connect.ts';
import { DatabaseLockedError } from '../db/lock.ts';
import { migrateDatabase } from '../db/migrate.ts';
import {
  createUser,
  EmailTakenError,
  InvalidUserError,
  MAX_ACCOUNTS,
  planAccounts,
} from '../modules/users/service.ts';

const USAGE = `Usage: npm run user:create -- --email EMAIL --password PASSWORD --nick NAME
         [--accounts N] [--phone PHONE] [--country COUNTRY]

Creates a user with N trading accounts (default 3, of different levels and types).
Uses DATA_DIR (PGlite, the server must be stopped) or DATABASE_URL like the server.`;

export type CliIo = {
  /** Opens the database the user goes to (closed by the command). */
  openDatabase: () => Promise<Database>;
  nowMs: () => number;
  out: (line: string) => void;
  err: (line: string) => void;
};

class UsageError extends Error {}

function parse(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        nick: { type: 'string' },
        accounts: { type: 'string' },
        phone: { type: 'string' },
        country: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = (['email', 'password', 'nick'] as const).filter((k) => !values[k]);
  if (missing.length > 0) {
    throw new UsageError(`Missing ${missing.map((k) => `--${k}`).join(', ')}`);
  }
  const accounts = values.accounts === undefined ? 3 : Number(values.accounts);
  if (!Number.isInteger(accounts) || accounts < 1 || accounts > MAX_ACCOUNTS) {
    throw new UsageError(`--accounts must be a whole number from 1 to ${MAX_ACCOUNTS}`);
  }
  return {
    email: values.email ?? '',
    password: values.password ?? '',
    nick: values.nick ?? '',
    accounts,
    phone: values.phone ?? null,
    country: values.country ?? null,
  };
}

/** Runs `user:create` with the given arguments; returns the process exit code. */
export async function runUserCreate(argv: string[], io: CliIo): Promise<number> {
  let args;
  try {
    args = parse(argv);
  } catch (error) {
    io.err(`Error: ${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }

  let database: Database;
  try {
    database = await io.openDatabase();
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      io.err(
        `Error: the database is in use by the running server (pid ${error.holderPid}). Stop the server first, then run this command again.`,
      );
      return 1;
    }
    if (error instanceof ConfigError) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  }

  try {
    await migrateDatabase(database);
    const { user, traders } = await createUser(
      database.db,
      {
        email: args.email,
        password: args.password,
        nickName: args.nick,
        phone: args.phone,
        country: args.country,
        accounts: planAccounts(args.accounts, args.nick.trim()),
      },
      io.nowMs(),
    );
    io.out(`Created user ${user.id}: ${user.email} (${user.nickName ?? ''})`);
    io.out('Trading accounts:');
    for (const t of traders) {
      io.out(`  ${t.uuid}  ${t.name}  level ${t.level}  type ${t.type}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof EmailTakenError || error instanceof InvalidUserError) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (invokedDirectly) {
  runUserCreate(process.argv.slice(2), {
    openDatabase: () => openDatabase(loadConfig()),
    nowMs: Date.now,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`user:create failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
