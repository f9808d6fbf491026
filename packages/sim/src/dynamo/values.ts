import { canonicalNumber, compareDecimal, parseDecimal, significantDigits } from "./decimal";
import { validation } from "./errors";

/** A DynamoDB attribute value as the JSON protocol carries it: exactly one type key (B and BS in base64). */
export type AttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { M: Record<string, AttributeValue> }
  | { L: AttributeValue[] }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] };

/** An item: attribute names to values. */
export type Item = Record<string, AttributeValue>;

/** The type tags DynamoDB uses. */
export type TypeTag = "S" | "N" | "B" | "BOOL" | "NULL" | "M" | "L" | "SS" | "NS" | "BS";

const TAGS = new Set<string>(["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"]);

/** The type tag of a value. */
export function typeOf(v: AttributeValue): TypeTag {
  return Object.keys(v)[0] as TypeTag;
}

/** The value's payload (the string, list, map...) whatever its type. */
export function payload(v: AttributeValue): unknown {
  return (v as Record<string, unknown>)[typeOf(v)];
}

const SET_NAMES: Record<string, string> = { SS: "An string set ", NS: "An number set ", BS: "Binary sets " };

/**
 * Checks a value from a request as DynamoDB does and answers its stored form: numbers canonical, sets non-empty and
 * without duplicates, exactly one type per value.
 */
export function checkValue(raw: unknown): AttributeValue {
  if (typeof raw !== "object" || raw === null)
    throw validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  const keys = Object.keys(raw).filter((k) => (raw as Record<string, unknown>)[k] !== undefined);
  if (keys.length === 0)
    throw validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
  if (keys.length > 1)
    throw validation(
      "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes",
    );
  const tag = keys[0] as string;
  const body = (raw as Record<string, unknown>)[tag];
  if (!TAGS.has(tag)) throw validation(`Supplied AttributeValue has an unknown datatype ${tag}`);
  switch (tag) {
    case "N":
      return { N: canonicalNumber(String(body)) };
    case "M":
      return { M: checkItem(body as Record<string, unknown>) };
    case "L":
      return { L: (body as unknown[]).map(checkValue) };
    case "SS":
    case "NS":
    case "BS":
      return checkSet(tag, body as string[]);
    case "NULL":
      if (body !== true)
        throw validation(
          "One or more parameter values were invalid: Null attribute value types must have the value of true",
        );
      return { NULL: true };
    default:
      return { [tag]: body } as AttributeValue;
  }
}

function checkSet(tag: "SS" | "NS" | "BS", members: string[]): AttributeValue {
  if (members.length === 0)
    throw validation(`One or more parameter values were invalid: ${SET_NAMES[tag]} may not be empty`);
  const stored = tag === "NS" ? members.map(canonicalNumber) : [...members];
  const seen = new Set(tag === "BS" ? stored.map(base64Canonical) : stored);
  if (seen.size !== stored.length) {
    throw validation(
      `One or more parameter values were invalid: Input collection [${members.join(", ")}] contains duplicates`,
    );
  }
  return { [tag]: stored } as AttributeValue;
}

/** Checks every attribute of an item from a request (see checkValue). */
export function checkItem(raw: Record<string, unknown>): Item {
  const out: Item = {};
  for (const [name, value] of Object.entries(raw ?? {})) out[name] = checkValue(value);
  return out;
}

function base64Canonical(b: string): string {
  return Buffer.from(b, "base64").toString("base64");
}

/** Compares two binaries as DynamoDB does: unsigned bytes. */
export function compareBinary(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "base64"), Buffer.from(b, "base64"));
}

/** Compares two strings as DynamoDB does: by their UTF-8 bytes (not UTF-16 code units). */
export function compareString(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** Orders two scalars of one type (S, N or B); undefined when the types differ or are not ordered. */
export function compareScalars(a: AttributeValue, b: AttributeValue): number | undefined {
  const t = typeOf(a);
  if (t !== typeOf(b)) return undefined;
  if (t === "S") return compareString(payload(a) as string, payload(b) as string);
  if (t === "N")
    return compareDecimal(parseDecimal(payload(a) as string), parseDecimal(payload(b) as string));
  if (t === "B") return compareBinary(payload(a) as string, payload(b) as string);
  return undefined;
}

/** Deep equality as DynamoDB's `=` sees it: same type, numbers by value, sets regardless of order. */
export function valuesEqual(a: AttributeValue, b: AttributeValue): boolean {
  const t = typeOf(a);
  if (t !== typeOf(b)) return false;
  const x = payload(a);
  const y = payload(b);
  switch (t) {
    case "S":
    case "BOOL":
    case "NULL":
      return x === y;
    case "N":
    case "B":
      return compareScalars(a, b) === 0;
    case "L":
      return listsEqual(x as AttributeValue[], y as AttributeValue[]);
    case "M":
      return mapsEqual(x as Item, y as Item);
    default:
      return setsEqual(t, x as string[], y as string[]);
  }
}

function listsEqual(x: AttributeValue[], y: AttributeValue[]): boolean {
  return x.length === y.length && x.every((v, i) => valuesEqual(v, y[i] as AttributeValue));
}

function mapsEqual(x: Item, y: Item): boolean {
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => y[k] !== undefined && valuesEqual(x[k] as AttributeValue, y[k] as AttributeValue));
}

/** A set member's identity: numbers by value, binaries by bytes. */
export function memberKey(tag: TypeTag, member: string): string {
  if (tag === "NS") return canonicalNumber(member);
  if (tag === "BS") return base64Canonical(member);
  return member;
}

function setsEqual(tag: TypeTag, x: string[], y: string[]): boolean {
  if (x.length !== y.length) return false;
  const ys = new Set(y.map((m) => memberKey(tag, m)));
  return x.every((m) => ys.has(memberKey(tag, m)));
}

/**
 * A deep copy, so stored items never share structure with requests or replies. Items are JSON's shapes (objects,
 * arrays, strings, booleans), copied by hand: `structuredClone` serializes and parses, several times slower on the
 * model's hottest path (every read returns a copy).
 */
export function cloneItem<T>(v: T): T {
  return cloneJson(v) as T;
}

function cloneJson(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(cloneJson);
  if (ArrayBuffer.isView(v)) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const copy = cloneJson((v as Record<string, unknown>)[k]);
    // an attribute named __proto__ is an own property, as structuredClone makes it, not the prototype
    if (k === "__proto__")
      Object.defineProperty(out, k, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[k] = copy;
  }
  return out;
}

/** The size DynamoDB charges for a value in bytes (close to its published rules). */
export function valueSize(v: AttributeValue): number {
  const x = payload(v);
  switch (typeOf(v)) {
    case "S":
      return Buffer.byteLength(x as string, "utf8");
    case "N":
      return Math.ceil(significantDigits(parseDecimal(x as string)) / 2) + 1;
    case "B":
      return Buffer.from(x as string, "base64").length;
    case "BOOL":
    case "NULL":
      return 1;
    case "L":
      return 3 + (x as AttributeValue[]).reduce((n, e) => n + 1 + valueSize(e), 0);
    case "M":
      return (
        3 + Object.entries(x as Item).reduce((n, [k, e]) => n + 1 + Buffer.byteLength(k) + valueSize(e), 0)
      );
    case "SS":
      return (x as string[]).reduce((n, e) => n + Buffer.byteLength(e, "utf8"), 0);
    case "NS":
      return (x as string[]).reduce((n, e) => n + valueSize({ N: e }), 0);
    default:
      return (x as string[]).reduce((n, e) => n + Buffer.from(e, "base64").length, 0);
  }
}

/** The item's size: attribute names plus values. */
export function itemSize(item: Item): number {
  return Object.entries(item).reduce((n, [k, v]) => n + Buffer.byteLength(k, "utf8") + valueSize(v), 0);
}
