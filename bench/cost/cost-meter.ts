import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import {
  baseWriteUnits,
  indexWriteUnits,
  itemBytes,
  readUnits,
  type TableShape,
  writeUnits,
} from "./billing-rules";
import { nativeInput, nativeOutput } from "./native-input";

type Item = Record<string, unknown>;

/** What an item write or read is, for naming its step. */
export type Op = "put" | "update" | "delete" | "check" | "read";

/** One item a request writes or reads, as a classifier sees it. */
export interface RequestItem {
  table: string;
  key: Item;
  op: Op;
}

/**
 * Names the step (claim, guard, settle, …) that a request on one item of one table belongs to; `request` is every
 * item of the same request, since a transaction's purpose shows in its other items (a row put with its locator is
 * the guard, without it the settle).
 */
export type Classifier = (table: string, key: Item, op: Op, request: readonly RequestItem[]) => string;

/** A table the meter bills: its shape, and whether it is a global table (each write billed again per replica). */
export interface MeteredTable extends TableShape {
  global: boolean;
}

/** One step's cost: round trips, and the units AWS would bill in the Region that took the request. */
export interface StepCost {
  calls: number;
  writeUnits: number;
  indexUnits: number;
  readUnits: number;
  /** Write units of global tables, billed once more as replicated writes in each other Region. */
  replicaUnits: number;
  /** Index units of global tables: each other Region's replica updates its own index too. */
  replicaIndexUnits: number;
}

interface ItemWrite extends RequestItem {
  transactional: boolean;
}

/** A step that has cost nothing yet. */
export const noCost = (): StepCost => ({
  calls: 0,
  writeUnits: 0,
  indexUnits: 0,
  readUnits: 0,
  replicaUnits: 0,
  replicaIndexUnits: 0,
});

/**
 * Counts what DynamoDB would bill for every request a client sends, by step, from the items themselves: it reads
 * each written item before and after the write (on a client of its own, not metered), so that sizes, the larger of
 * before and after, and index entries added, changed or removed are billed as AWS bills them.
 */
export class CostMeter {
  readonly steps = new Map<string, StepCost>();
  /** The same costs split by what sent the request (`sourceOf`, e.g. the invocation's function name). */
  private readonly bySource = new Map<string, Map<string, StepCost>>();
  /** When the last request was sent (ms), so that a driver can wait for the system to go quiet. */
  lastCallAt = 0;
  private attached = 0;

  constructor(
    private readonly tables: Map<string, MeteredTable>,
    private readonly classify: Classifier,
    private readonly images: DynamoDBDocumentClient,
    /** Names what sent the current request (the local runtime's invocation); unnamed requests are "other". */
    private readonly sourceOf: () => string | undefined = () => undefined,
  ) {}

  /** Adds the meter to a document client as an SDK middleware. */
  attach(client: { middlewareStack: DynamoDBDocumentClient["middlewareStack"] }): void {
    client.middlewareStack.add(
      (next, context) => async (args) =>
        this.metered(context.commandName ?? "", args.input as Item, () => next(args)),
      { step: "initialize", name: `eoCostMeter${this.attached++}` },
    );
  }

  reset(): void {
    this.steps.clear();
    this.bySource.clear();
  }

  /** The steps' costs so far, copied: of every request, or of those one source sent. */
  snapshot(source?: string): Map<string, StepCost> {
    const steps = source === undefined ? this.steps : (this.bySource.get(source) ?? new Map());
    return new Map([...steps].map(([k, v]) => [k, { ...v }]));
  }

  private async metered<R extends { output?: unknown }>(
    name: string,
    raw: Item,
    run: () => Promise<R>,
  ): Promise<R> {
    // PutItemCommand and a document client's PutCommand are one request: name them alike.
    const command = name.replace(/Items?Command$/, "Command");
    const source = this.sourceOf() ?? "other";
    this.lastCallAt = Date.now();
    const input = nativeInput(raw);
    const writes = writesOf(command, input, this.tables);
    if (writes.length === 0) {
      const out = await run();
      this.countRead(command, input, nativeOutput(out.output as Item), source);
      return out;
    }
    const before = await Promise.all(writes.map((w) => this.image(w)));
    let failed = true;
    try {
      const out = await run();
      failed = false;
      return out;
    } finally {
      const after = failed ? before : await Promise.all(writes.map((w) => this.image(w)));
      this.countWrites(writes, before, after, failed, source);
    }
  }

  // The meter must never break the request it meters: an image it cannot read counts as no item.
  private async image(w: ItemWrite): Promise<Item | undefined> {
    try {
      const out = await this.images.send(
        new GetCommand({ TableName: w.table, Key: w.key, ConsistentRead: true }),
      );
      return out.Item;
    } catch {
      return undefined;
    }
  }

  // A failed condition still bills the item's size (at least one unit) and writes no index entry.
  private countWrites(
    writes: ItemWrite[],
    before: Array<Item | undefined>,
    after: Array<Item | undefined>,
    failed: boolean,
    source: string,
  ) {
    // The round trip belongs to the request's first real write; a condition check to the write it guards.
    const main = writes.find((w) => w.op !== "check") ?? writes[0];
    const stepOf = (w: ItemWrite) => (w.op === "check" && main ? main : w);
    const named = (w: ItemWrite) => this.classify(w.table, w.key, w.op, writes);
    for (const s of main ? this.step(named(main), source) : []) s.calls += 1;
    writes.forEach((w, i) => {
      const table = this.tables.get(w.table) as MeteredTable;
      const steps = this.step(named(stepOf(w)), source);
      const [b, a] = [before[i], after[i]];
      const changes = !failed && w.op !== "check";
      const units = changes
        ? baseWriteUnits(b, a, w.transactional)
        : writeUnits(itemBytes(b)) * (w.transactional ? 2 : 1);
      const index = changes ? indexWriteUnits(table, b, a) : 0;
      for (const step of steps) {
        step.writeUnits += units;
        step.indexUnits += index;
        if (table.global && changes) {
          step.replicaUnits += baseWriteUnits(b, a, false);
          step.replicaIndexUnits += index;
        }
      }
    });
  }

  private countRead(command: string, input: Item, output: Item | undefined, source: string) {
    const read = readOf(command, input, output);
    if (!read) return;
    const item = { table: read.table, key: read.key, op: "read" as const };
    for (const step of this.step(this.classify(item.table, item.key, "read", [item]), source)) {
      step.calls += 1;
      step.readUnits += read.units;
    }
  }

  // A step's cost among all requests and among its source's: each is added to both.
  private step(name: string, source: string): [StepCost, StepCost] {
    const of = (steps: Map<string, StepCost>) => {
      const s = steps.get(name) ?? noCost();
      steps.set(name, s);
      return s;
    };
    const mine = this.bySource.get(source) ?? new Map<string, StepCost>();
    this.bySource.set(source, mine);
    return [of(this.steps), of(mine)];
  }
}

// The items a write request touches, each with its key (a Put's key is taken from its item).
function writesOf(command: string, input: Item, tables: Map<string, MeteredTable>): ItemWrite[] {
  const keyOf = (table: string, item: Item) =>
    Object.fromEntries((tables.get(table)?.keys ?? []).map((k) => [k, item[k]]));
  const one = (table: string, op: Op, key: Item, transactional = false): ItemWrite[] =>
    tables.has(table) ? [{ table, key, op, transactional }] : [];
  const table = String(input.TableName ?? "");
  if (command === "PutCommand") return one(table, "put", keyOf(table, input.Item as Item));
  if (command === "UpdateCommand") return one(table, "update", input.Key as Item);
  if (command === "DeleteCommand") return one(table, "delete", input.Key as Item);
  if (command === "TransactWriteCommand")
    return (input.TransactItems as Array<Record<string, Item>>).flatMap((op) => {
      const [kind, body] = Object.entries(op)[0] as [string, Item];
      const t = String(body.TableName);
      const o: Op =
        kind === "Put" ? "put" : kind === "Update" ? "update" : kind === "Delete" ? "delete" : "check";
      return one(t, o, o === "put" ? keyOf(t, body.Item as Item) : (body.Key as Item), true);
    });
  if (command === "BatchWriteCommand")
    return Object.entries(input.RequestItems as Record<string, Array<Record<string, Item>>>).flatMap(
      ([t, reqs]) =>
        reqs.flatMap((r) =>
          r.PutRequest
            ? one(t, "put", keyOf(t, r.PutRequest.Item as Item))
            : one(t, "delete", r.DeleteRequest?.Key as Item),
        ),
    );
  return [];
}

// A read request's table, the key it names (for its step) and its read units.
function readOf(command: string, input: Item, output: Item | undefined) {
  const consistent = input.ConsistentRead === true;
  const table = String(input.TableName ?? "");
  if (command === "GetCommand")
    return { table, key: input.Key as Item, units: readUnits(itemBytes(output?.Item as Item), consistent) };
  if (command === "QueryCommand" || command === "ScanCommand") {
    const bytes = ((output?.Items as Item[]) ?? []).reduce((s, i) => s + itemBytes(i), 0);
    const values = Object.values((input.ExpressionAttributeValues as Item) ?? {});
    const pk = values.find((v) => typeof v === "string") ?? command;
    return { table, key: { pk, id: pk }, units: readUnits(bytes, consistent) };
  }
  if (command === "BatchGetCommand") {
    // Billed as one GetItem per key asked for: each item per started 4 KB, an absent one at the minimum.
    const [table = "", req] = Object.entries((input.RequestItems as Record<string, Item>) ?? {})[0] ?? [];
    const keys = ((req?.Keys as Item[]) ?? []).length;
    const found = ((output?.Responses as Record<string, Item[]>)?.[table] ?? []) as Item[];
    const consistent = (req as Item | undefined)?.ConsistentRead === true;
    const units =
      found.reduce((n, i) => n + readUnits(itemBytes(i), consistent), 0) +
      Math.max(0, keys - found.length) * readUnits(0, consistent);
    return { table, key: (req?.Keys as Item[])?.[0] as Item, units };
  }
  if (command === "TransactGetCommand") {
    const gets = (input.TransactItems as Array<{ Get: Item }>).map((g) => g.Get);
    const items = ((output?.Responses as Array<{ Item?: Item }>) ?? []).map((r) => r.Item);
    const units = items.reduce((s: number, i) => s + 2 * readUnits(itemBytes(i), true), 0);
    return { table: String(gets[0]?.TableName), key: gets[0]?.Key as Item, units };
  }
  return undefined;
}
