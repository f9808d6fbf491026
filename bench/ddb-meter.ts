import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/** Counts DynamoDB calls and the write units AWS would bill for them, from item sizes and AWS's rules. */
export class DdbMeter {
  calls = 0;
  writeUnits = 0;
  reportedUnits = 0;
  byCommand = new Map<string, number>();

  /** Adds the meter to a client as an SDK middleware; it also asks DynamoDB for ReturnConsumedCapacity. */
  attach(
    client: DynamoDBDocumentClient | { middlewareStack: DynamoDBDocumentClient["middlewareStack"] },
  ): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? "unknown";
        const input = args.input as Record<string, unknown>;
        this.calls += 1;
        this.byCommand.set(command, (this.byCommand.get(command) ?? 0) + 1);
        this.writeUnits += billedWriteUnits(command, input);
        if (/Put|Update|Delete|TransactWrite/.test(command)) input.ReturnConsumedCapacity = "TOTAL";
        const out = await next(args);
        const cc = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
        for (const c of Array.isArray(cc) ? cc : cc ? [cc] : [])
          this.reportedUnits += (c as { CapacityUnits?: number }).CapacityUnits ?? 0;
        return out;
      },
      { step: "initialize", name: `ddbMeter${Math.random()}` },
    );
  }

  reset(): void {
    this.calls = 0;
    this.writeUnits = 0;
    this.reportedUnits = 0;
    this.byCommand.clear();
  }
}

// AWS bills 1 write unit per started KB of the item for a standard write and 2 per KB for each item
// in a transaction (DynamoDB Local under-reports transactions, so we do not trust its figure).
function billedWriteUnits(command: string, input: Record<string, unknown>): number {
  const kb = (item: unknown) => Math.max(1, Math.ceil(approxItemBytes(item) / 1024));
  if (command === "PutCommand" || command === "PutItemCommand") return kb(input.Item);
  if (/^(Update|Delete)(Item)?Command$/.test(command)) return kb(input.Key);
  if (/^TransactWrite(Items)?Command$/.test(command)) {
    const items = (input.TransactItems as Array<Record<string, { Item?: unknown; Key?: unknown }>>) ?? [];
    return items.reduce((sum, op) => {
      const inner = Object.values(op)[0];
      return sum + 2 * kb(inner?.Item ?? inner?.Key);
    }, 0);
  }
  return 0;
}

/** An item's size as DynamoDB counts it: attribute names plus values (numbers ~ digits/2 + 1). */
export function approxItemBytes(value: unknown): number {
  if (value === null || value === undefined) return 1;
  if (typeof value === "string") return Buffer.byteLength(value);
  if (typeof value === "number") return Math.ceil(String(value).length / 2) + 1;
  if (typeof value === "boolean") return 1;
  if (Array.isArray(value)) return 3 + value.reduce((s, v) => s + 1 + approxItemBytes(v), 0);
  return (
    3 +
    Object.entries(value as Record<string, unknown>).reduce(
      (s, [k, v]) => s + Buffer.byteLength(k) + approxItemBytes(v),
      0,
    )
  );
}
