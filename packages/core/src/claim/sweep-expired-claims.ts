import { DeleteCommand, type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { Clock } from "../clock/clock";
import { unsafeSweepsOneCheck } from "../region/act-window";
import { claimSwitches } from "./test-switches";

/** What a pass over the claim table did. */
export interface ClaimSweepReport {
  /** Items the scan found expired (claims, voids and the resolver's rate-cap seconds alike). */
  examined: number;
  deleted: number;
  /** Items renewed (or written by another Region) between the scan and the delete: left alone. */
  kept: number;
  /** Set when a re-check found the Region passive mid-pass (see `SweepOptions.stillActive`). */
  stopped?: "passive";
}

/** Where the sweep runs: the claim table, and the clock that decides expiry. */
export interface ClaimSweepDeps {
  db: DynamoDBDocumentClient;
  table: string;
  clock: Clock;
}

/**
 * Deletes claim-table items whose `expiration` has passed on our clock, for the multi-Region strongly
 * consistent table, which has no TTL. Cleanup only: every reader already treats them as absent.
 */
export async function sweepExpiredClaims(
  deps: ClaimSweepDeps,
  limit = 1_000,
  stillActive?: () => Promise<boolean>,
): Promise<ClaimSweepReport> {
  const nowS = Math.floor(deps.clock.now() / 1000);
  const report: ClaimSweepReport = { examined: 0, deleted: 0, kept: 0 };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        ProjectionExpression: "id",
        FilterExpression: "expiration < :now",
        ExpressionAttributeValues: { ":now": nowS },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (page.Items ?? []).slice(0, limit - report.examined)) {
      // A delete in a fenced Region is a claim write on a stale read: re-checked per item (issue 40, item 6).
      if (stillActive && !unsafeSweepsOneCheck() && !(await stillActive())) {
        report.stopped = "passive";
        return report;
      }
      report.examined += 1;
      if (await deleteIfExpired(deps, String(item.id), nowS)) report.deleted += 1;
      else report.kept += 1;
    }
    start = page.LastEvaluatedKey;
  } while (start && report.examined < limit);
  return report;
}

// Single-item conditional deletes only (MRSC takes no transactions); the condition is read again at the
// delete, so a claim that a request renewed after the scan keeps its new window.
async function deleteIfExpired(deps: ClaimSweepDeps, id: string, nowS: number): Promise<boolean> {
  const guarded = !claimSwitches().unconditionalClaimSweep;
  try {
    await deps.db.send(
      new DeleteCommand({
        TableName: deps.table,
        Key: { id },
        ...(guarded
          ? { ConditionExpression: "expiration < :now", ExpressionAttributeValues: { ":now": nowS } }
          : {}),
      }),
    );
    return true;
  } catch (err) {
    const name = (err as Error).name;
    // Renewed meanwhile, or another Region is writing it right now: either way it is not ours to delete.
    if (name === "ConditionalCheckFailedException" || name === "ReplicatedWriteConflictException")
      return false;
    throw err;
  }
}
