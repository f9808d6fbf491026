import { isDeepStrictEqual } from "node:util";
import { type DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { executeOp } from "./execute";
import { sortByJson, sortSets } from "./normalize";
import type { Op, Outcome } from "./op";
import { sameOutcome } from "./same-outcome";
import { physicalName, TABLE_NAMES } from "./tables";

/** Every table's items after a run, each table's items sorted (a scan's order is not part of the API). */
export type Tables = Record<string, unknown[]>;

/** Where two DynamoDBs first parted: the op's index and both answers, or the tables after the last op. */
export interface Disagreement {
  /** The op's index in the run, or "tables" when every reply agreed but the items left behind did not. */
  at: number | "tables";
  op?: Op;
  reference: unknown;
  subject: unknown;
}

/** Reads a whole table through Scan, following every page. */
export async function scanAll(client: DynamoDBClient, prefix: string): Promise<Tables> {
  const out: Tables = {};
  for (const table of TABLE_NAMES) {
    const items: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(
        // biome-ignore lint/suspicious/noExplicitAny: the key is the target's own LastEvaluatedKey, passed back
        new ScanCommand({ TableName: physicalName(prefix, table), ExclusiveStartKey: start as any }),
      );
      items.push(...(page.Items ?? []).map(sortSets));
      start = page.LastEvaluatedKey;
    } while (start);
    out[table] = sortByJson(items);
  }
  return out;
}

/** Plays the ops on one client, answering every outcome. */
export async function playAll(client: DynamoDBClient, prefix: string, ops: Op[]): Promise<Outcome[]> {
  const replies: Outcome[] = [];
  for (const op of ops) replies.push(await executeOp(client, prefix, op));
  return replies;
}

/** The first op whose recorded reference answer and the subject's answer differ, else the tables if they differ. */
export function firstDisagreement(
  ops: Op[],
  reference: { replies: Outcome[]; tables: Tables },
  subject: { replies: Outcome[]; tables: Tables },
): Disagreement | undefined {
  for (let i = 0; i < ops.length; i++) {
    if (!sameOutcome(reference.replies[i], subject.replies[i], ops[i]))
      return { at: i, op: ops[i], reference: reference.replies[i], subject: subject.replies[i] };
  }
  for (const table of TABLE_NAMES) {
    if (!isDeepStrictEqual(reference.tables[table], subject.tables[table]))
      return {
        at: "tables",
        reference: { [table]: reference.tables[table] },
        subject: { [table]: subject.tables[table] },
      };
  }
  return undefined;
}
