import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { startDynamoDbLocal } from "../../packages/local/src/emulators/dynamodb-local";
import { freePort } from "../../packages/local/src/emulators/free-port";
import type { ManagedProcess } from "../../packages/local/src/emulators/managed-process";
import { authorityRegion } from "../../packages/local/src/region/control-table";
import { LOCAL_CREDENTIALS, localRegions } from "../../packages/local/src/stack/regions";
import type { LentDynamoDb } from "../../packages/local/src/stack/start-emulators";

/** Where the suite's global setup says which warm DynamoDB Locals the test files may borrow. */
const POOL_ENV = "EO_TEST_DYNAMODB_POOL";

interface Pool {
  dir: string;
  members: { port: number; pid: number }[];
}

/**
 * Starts `size` DynamoDB Locals for the whole suite and names them in the environment the test workers inherit:
 * a JVM's start (about 1.5 s of a core) and its cold first requests were paid by every test file's stack before.
 * Answers how to stop them, by their own process groups.
 */
export async function startDynamoDbPool(size: number): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), "eo-dynamodb-pool-"));
  const ports = await Promise.all(Array.from({ length: size }, () => freePort()));
  const procs = await Promise.all(ports.map((port) => startDynamoDbLocal(port)));
  const members = procs.map((proc, i) => ({ port: ports[i] as number, pid: proc.pid }));
  process.env[POOL_ENV] = JSON.stringify({ dir, members } satisfies Pool);
  return async () => {
    await Promise.all(procs.map((p) => p.stop()));
    rmSync(dir, { recursive: true, force: true });
    delete process.env[POOL_ENV];
  };
}

/**
 * Borrows a free member of the pool for one stack's life, with every table of the local Regions deleted first (the
 * last borrower's, or a crashed one's); undefined when there is no pool or every member is lent (the stack then
 * starts its own, as before). Its `stop()` gives it back.
 */
export async function borrowDynamoDb(): Promise<LentDynamoDb | undefined> {
  const raw = process.env[POOL_ENV];
  if (!raw) return undefined;
  const pool = JSON.parse(raw) as Pool;
  for (const m of pool.members) {
    const lock = join(pool.dir, String(m.port));
    if (!takeLock(lock)) continue;
    const endpoint = `http://127.0.0.1:${m.port}`;
    try {
      await deleteAllTables(endpoint);
    } catch {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    const process: ManagedProcess = {
      name: "dynamodb-local",
      pid: m.pid,
      output: () => "(a pooled DynamoDB Local, started by the suite's global setup)",
      stop: async () => rmSync(lock, { recursive: true, force: true }),
    };
    return { endpoint, process };
  }
  return undefined;
}

// A lock is a directory (mkdir is atomic) holding its borrower's pid; a borrower that died leaves one to take over.
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || ownerAlive(lock)) return false;
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return false;
}

function ownerAlive(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, "pid"), "utf8")), 0);
    return true;
  } catch (err) {
    // No pid file yet: its owner is between the two calls of takeLock, alive.
    return (
      (err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "EPERM"
    );
  }
}

/** Deletes every table of the local Regions and the authority's (DynamoDB Local keeps a database per Region). */
async function deleteAllTables(endpoint: string): Promise<void> {
  const { primary, standby } = localRegions();
  for (const region of new Set([primary.region, standby.region, authorityRegion()])) {
    const ddb = new DynamoDBClient({ endpoint, region, credentials: LOCAL_CREDENTIALS, maxAttempts: 2 });
    try {
      const { TableNames = [] } = await ddb.send(new ListTablesCommand({}));
      for (const TableName of TableNames) await ddb.send(new DeleteTableCommand({ TableName }));
    } finally {
      ddb.destroy();
    }
  }
}
