import { unsupported, validation } from "./errors";
import { type Item, itemSize } from "./values";

const LEGACY = [
  "Expected",
  "ConditionalOperator",
  "AttributeUpdates",
  "AttributesToGet",
  "KeyConditions",
  "QueryFilter",
  "ScanFilter",
];

/** Refuses the legacy (pre-expression) parameters loudly: the model implements expressions only. */
export function refuseLegacy(input: Record<string, unknown>): void {
  for (const p of LEGACY) {
    if (input[p] !== undefined) throw unsupported(`the legacy parameter ${p} (use expressions)`);
  }
}

const MAX_ITEM_BYTES = 400 * 1024;

/** Refuses an item over DynamoDB's 400 KB limit, with its message. */
export function checkItemSize(item: Item, update = false): void {
  if (itemSize(item) > MAX_ITEM_BYTES) {
    throw validation(
      update
        ? "Item size to update has exceeded the maximum allowed size"
        : "Item size has exceeded the maximum allowed size",
    );
  }
}

/** Checks ReturnValues against the values an operation allows, with DynamoDB's message. */
export function checkReturnValues(value: unknown, allowed: string[]): string {
  const v = value === undefined ? "NONE" : String(value);
  if (!allowed.includes(v)) {
    throw validation("Return values set to invalid value");
  }
  return v;
}

/** Refuses a table name outside DynamoDB's pattern and length. */
export function checkTableName(name: unknown): string {
  const n = String(name ?? "");
  if (!/^[a-zA-Z0-9_.-]{3,255}$/.test(n)) {
    throw validation(
      "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'",
    );
  }
  return n;
}
