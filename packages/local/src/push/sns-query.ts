import { randomUUID } from "node:crypto";

/** A request to the SNS query API: the action and its flat, form-encoded parameters. */
export interface QueryRequest {
  action: string;
  params: URLSearchParams;
}

/** An SNS error as the SDK maps it: the code names the exception (e.g. NotFound → NotFoundException). */
export class SnsFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parses a form-encoded SNS query body (`Action=…&Version=2010-03-31&…`). */
export function parseQuery(body: string): QueryRequest {
  const params = new URLSearchParams(body);
  const action = params.get("Action");
  if (!action) throw new SnsFault(400, "MissingAction", "the request has no Action");
  return { action, params };
}

/** Reads a query map such as `Attributes.entry.1.key` / `.value` into a plain object. */
export function readEntries(
  params: URLSearchParams,
  prefix: string,
  keyName: string,
  valueName: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 1; params.has(`${prefix}.entry.${i}.${keyName}`); i++) {
    out[params.get(`${prefix}.entry.${i}.${keyName}`) as string] =
      params.get(`${prefix}.entry.${i}.${valueName}`) ?? "";
  }
  return out;
}

/** A required parameter, or the InvalidParameter fault SNS answers. */
export function required(params: URLSearchParams, name: string): string {
  const v = params.get(name);
  if (!v) throw new SnsFault(400, "InvalidParameter", `Invalid parameter: ${name}`);
  return v;
}

const NS = "http://sns.amazonaws.com/doc/2010-03-31/";

/** The XML success envelope of an action, with `result` as the inner XML of its Result element. */
export function okXml(action: string, result: string): string {
  return `<${action}Response xmlns="${NS}"><${action}Result>${result}</${action}Result><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></${action}Response>`;
}

/** The XML error envelope. */
export function errorXml(fault: SnsFault): string {
  return `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${esc(fault.code)}</Code><Message>${esc(fault.message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`;
}

/** An attribute map as SNS writes it in XML. */
export function entriesXml(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => `<entry><key>${esc(k)}</key><value>${esc(v)}</value></entry>`)
    .join("");
}

/** Escapes text for XML. */
export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
