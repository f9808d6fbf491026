import { validation } from "./errors";
import { type AttributeValue, checkValue } from "./values";

/**
 * The ExpressionAttributeNames and Values of one request, shared by all its expressions, recording which were used so
 * the request can be refused for unused ones as DynamoDB does.
 */
export class ExpressionContext {
  private readonly usedNames = new Set<string>();
  private readonly usedValues = new Set<string>();
  private readonly values: Record<string, AttributeValue> = {};

  constructor(
    private readonly names: Record<string, string> | undefined,
    private readonly rawValues: Record<string, unknown> | undefined,
  ) {
    if (names && Object.keys(names).length === 0) {
      throw validation("ExpressionAttributeNames must not be empty");
    }
    if (rawValues && Object.keys(rawValues).length === 0) {
      throw validation("ExpressionAttributeValues must not be empty");
    }
    for (const [k, v] of Object.entries(rawValues ?? {})) {
      try {
        this.values[k] = checkValue(v);
      } catch (e) {
        throw validation(
          `ExpressionAttributeValues contains invalid value: ${(e as Error).message} for key ${k}`,
        );
      }
    }
  }

  /** The attribute name behind `#alias`, or DynamoDB's error naming the expression. */
  name(alias: string, label: string): string {
    const real = this.names?.[alias];
    if (real === undefined) {
      throw validation(
        `Invalid ${label}: An expression attribute name used in the document path is not defined; attribute name: ${alias}`,
      );
    }
    this.usedNames.add(alias);
    return real;
  }

  /** The value behind `:placeholder`, or DynamoDB's error naming the expression. */
  value(placeholder: string, label: string): AttributeValue {
    const v = this.values[placeholder];
    if (v === undefined) {
      throw validation(
        `Invalid ${label}: An expression attribute value used in expression is not defined; attribute value: ${placeholder}`,
      );
    }
    this.usedValues.add(placeholder);
    return v;
  }

  /** The value behind a placeholder as the request wrote it (`1.50` stays `1.50`), for messages that echo it. */
  written(placeholder: string): unknown {
    return this.rawValues?.[placeholder];
  }

  /** Refuses names or values that no expression of the request used. */
  checkAllUsed(): void {
    const names = Object.keys(this.names ?? {}).filter((k) => !this.usedNames.has(k));
    if (names.length > 0) {
      throw validation(
        `Value provided in ExpressionAttributeNames unused in expressions: keys: {${names.join(", ")}}`,
      );
    }
    const values = Object.keys(this.values).filter((k) => !this.usedValues.has(k));
    if (values.length > 0) {
      throw validation(
        `Value provided in ExpressionAttributeValues unused in expressions: keys: {${values.join(", ")}}`,
      );
    }
  }
}

/**
 * Refuses names or values sent with no expression at all, in DynamoDB Local's words: the names' message is bare, the
 * values' one says which expressions are missing (`missing`, e.g. "FilterExpression is null").
 */
export function refuseWithoutExpressions(names: unknown, values: unknown, missing?: string): void {
  if (names !== undefined) {
    throw validation("ExpressionAttributeNames can only be specified when using expressions");
  }
  if (values !== undefined) {
    const why = missing ? `: ${missing}` : "";
    throw validation(`ExpressionAttributeValues can only be specified when using expressions${why}`);
  }
}
