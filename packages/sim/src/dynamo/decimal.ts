import { validation } from "./errors";

/**
 * An exact DynamoDB number: `mantissa × 10^exponent`, mantissa without trailing zeros. DynamoDB keeps 38 significant
 * digits exactly, so the model never goes through a JS float (1e16 + 1 must stay 10000000000000001).
 */
export interface Decimal {
  readonly mantissa: bigint;
  readonly exponent: number;
}

const SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const MAX_DIGITS = 38;

function normalized(mantissa: bigint, exponent: number): Decimal {
  if (mantissa === 0n) return { mantissa: 0n, exponent: 0 };
  let m = mantissa;
  let e = exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e += 1;
  }
  return { mantissa: m, exponent: e };
}

/** Parses a number as DynamoDB does, rejecting text it would not accept and values outside its range. */
export function parseDecimal(text: string): Decimal {
  const match = SYNTAX.exec(text.trim());
  const whole = match?.[2] ?? "";
  const frac = match?.[3] ?? "";
  if (!match || (whole === "" && frac === "")) {
    throw validation("A value provided cannot be converted into a number");
  }
  const digits = BigInt(`${whole}${frac}` || "0");
  const sign = match[1] === "-" ? -1n : 1n;
  const d = normalized(sign * digits, Number(match[4] ?? 0) - frac.length);
  return checkRange(d);
}

/** Rejects a number DynamoDB could not store: more than 38 significant digits, or beyond 1E-130..1E+126. */
export function checkRange(d: Decimal): Decimal {
  if (d.mantissa === 0n) return d;
  const digits = abs(d.mantissa).toString().length;
  if (digits > MAX_DIGITS) throw validation("DynamoDB only supports precision up to 38 digits");
  const magnitude = digits - 1 + d.exponent;
  if (magnitude > 125) {
    throw validation(
      "Number overflow. Attempting to store a number with magnitude larger than supported range",
    );
  }
  if (magnitude < -130) {
    throw validation(
      "Number underflow. Attempting to store a number with magnitude smaller than supported range",
    );
  }
  return d;
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const e = Math.min(a.exponent, b.exponent);
  return [a.mantissa * 10n ** BigInt(a.exponent - e), b.mantissa * 10n ** BigInt(b.exponent - e), e];
}

/** Orders two numbers exactly: negative, zero or positive as in a comparator. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The exact sum, checked against DynamoDB's range. */
export function addDecimal(a: Decimal, b: Decimal): Decimal {
  const [x, y, e] = aligned(a, b);
  return checkRange(normalized(x + y, e));
}

/** The exact difference, checked against DynamoDB's range. */
export function subtractDecimal(a: Decimal, b: Decimal): Decimal {
  return addDecimal(a, { mantissa: -b.mantissa, exponent: b.exponent });
}

/** The canonical text DynamoDB answers with: no exponent, no trailing zeros, no leading zeros ("1.50" is "1.5"). */
export function formatDecimal(d: Decimal): string {
  if (d.mantissa === 0n) return "0";
  const sign = d.mantissa < 0n ? "-" : "";
  const digits = abs(d.mantissa).toString();
  if (d.exponent >= 0) return `${sign}${digits}${"0".repeat(d.exponent)}`;
  const point = digits.length + d.exponent;
  if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}0.${"0".repeat(-point)}${digits}`;
}

/** Normalizes number text as DynamoDB stores it, throwing its ValidationException for text it would refuse. */
export function canonicalNumber(text: string): string {
  return formatDecimal(parseDecimal(text));
}

/** The number's significant digit count, which DynamoDB's item size counts (about one byte per two digits). */
export function significantDigits(d: Decimal): number {
  return d.mantissa === 0n ? 1 : abs(d.mantissa).toString().length;
}
