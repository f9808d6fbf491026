/**
 * One generated DynamoDB request, kept as plain JSON (low-level attribute values, logical table names) so that a
 * disagreement can be written to a kept case and replayed byte for byte.
 */
export type AV =
  | { S: string }
  | { N: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { SS: string[] }
  | { NS: string[] }
  | { L: AV[] }
  | { M: Record<string, AV> };

export type Item = Record<string, AV>;

export type OpKind =
  | "PutItem"
  | "UpdateItem"
  | "DeleteItem"
  | "GetItem"
  | "Query"
  | "Scan"
  | "TransactWriteItems"
  | "BatchWriteItem"
  | "BatchGetItem";

/**
 * A request: `input` is the API's own input with logical table names (`ledger`, `totals`, `claims`) wherever a
 * TableName or a RequestItems key goes; the executor puts the run's prefix on them.
 */
export interface Op {
  kind: OpKind;
  input: Record<string, unknown>;
  /** Why this request exists when it was built to be refused (e.g. "undefined value"), for reading kept cases. */
  invalid?: string;
}

/** What one target answered to one request, normalized for comparison. */
export type Outcome =
  | { ok: Record<string, unknown> }
  | { error: { name: string; message: string; Item?: unknown; CancellationReasons?: unknown } };
