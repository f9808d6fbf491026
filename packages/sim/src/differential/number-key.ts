/**
 * A number's value as comparable text: "1.50", "1.5" and "15E-1" all give "15E-1". DynamoDB documents that it
 * trims a number's leading and trailing zeros (Developer Guide, "Data types", Number), so it answers "1.5" for a
 * stored "1.50"; DynamoDB Local answers the text as sent. Replies are therefore compared by value, never by
 * spelling: a model that got a value wrong still disagrees, one that spells it as AWS does is not blamed.
 */
export function numberKey(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return `invalid:${text}`;
  const [, sign, int = "", frac = "", exp = "0"] = m;
  let digits = `${int}${frac}`.replace(/^0+/, "");
  let exponent = Number(exp) - frac.length;
  if (digits === "") return "0";
  const trailing = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return `${sign === "-" ? "-" : ""}${digits}E${exponent}`;
}
