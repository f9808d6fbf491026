/**
 * The Region authority (issue 26, item 1): one control table with a third vote that every function of both Regions
 * reads, with GetItem and nothing more. `mrsc`: the table in the primary Region, a STRONG replica in the standby and
 * a witness in WITNESS_REGION. `single-region`: one ordinary table in WITNESS_REGION, read across Regions. Its first
 * item is written once, and the stage outputs say where it lives. Held to the issue, not to the stacks.
 */
import type { CapturedResource, Json } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;

/** What an ordinary function must not do on the authority: only the failover script (its own credentials) writes. */
const NOT_GRANTED = [
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
  "dynamodb:BatchWriteItem",
  "dynamodb:BatchGetItem",
  "dynamodb:ConditionCheckItem",
  "dynamodb:Query",
  "dynamodb:Scan",
  "dynamodb:PartiQLSelect",
  "dynamodb:PartiQLInsert",
  "dynamodb:PartiQLUpdate",
  "dynamodb:PartiQLDelete",
  "dynamodb:DescribeTable",
  "dynamodb:UpdateTable",
  "dynamodb:DeleteTable",
];

/** The authority's table: the one most functions name in CONTROL_TABLE (the others are reported). */
function authorityTable(v: View): { name?: string; table?: CapturedResource } {
  const counts = new Map<string, number>();
  for (const role of ROLES) {
    for (const f of v.functionsIn(role)) {
      const name = v.env(f).CONTROL_TABLE ?? "";
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  const name = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { name, table: v.table(name) };
}

/** The ARN a function reaches in a Region: the table's own there, or its replica's; undefined when neither. */
function arnIn(v: View, table: CapturedResource, region: string): string | undefined {
  if (v.regionOf(table) === region) return str(table.state.arn);
  return str(
    arr(table.state.replicas)
      .map(obj)
      .find((r) => r.regionName === region)?.arn,
  );
}

function tableProblems(v: View, table: CapturedResource): string[] {
  const out: string[] = [];
  const { regions, controlMode } = v.expected;
  if (table.inputs.hashKey !== "pk" || table.inputs.rangeKey) out.push("the control table's key is not pk");
  if (table.inputs.streamEnabled === true) out.push("the control table has a stream (nothing reads it)");
  const replicas = arr(table.inputs.replicas).map(obj);
  const witness = str(obj(table.inputs.globalTableWitness).regionName);
  if (controlMode === "single-region") {
    if (v.regionOf(table) !== regions.witness)
      out.push(`single-region: the control table is in ${v.regionOf(table)}, expected ${regions.witness}`);
    if (replicas.length > 0 || witness)
      out.push("single-region: the control table has replicas or a witness");
    return out;
  }
  const where = [v.regionOf(table), ...replicas.map((r) => str(r.regionName))];
  if (JSON.stringify(where) !== JSON.stringify([regions.primary, regions.standby])) {
    out.push(
      `mrsc: the control table's replicas are in ${where.join(", ")}, expected exactly ${regions.primary} and ${regions.standby}`,
    );
  }
  const modes = replicas.map((r) => str(r.consistencyMode) ?? "EVENTUAL");
  if (modes.length === 0 || modes.some((m) => m !== "STRONG"))
    out.push(`mrsc: the control table's consistency mode is ${modes.join(", ") || "none"}, expected STRONG`);
  if (witness !== regions.witness)
    out.push(`mrsc: the control table's witness is ${witness ?? "missing"}, expected ${regions.witness}`);
  if (obj(table.inputs.ttl).enabled === true) out.push("mrsc: the control table has TTL (MRSC has none)");
  return out;
}

/** Every function names the authority, reaches it in the right Region, and may GetItem on it and nothing more. */
function accessProblems(v: View, name: string, table: CapturedResource): string[] {
  const out: string[] = [];
  const { regions, controlMode } = v.expected;
  const wantRegion = controlMode === "single-region" ? regions.witness : undefined;
  const allArns = [str(table.state.arn), ...arr(table.state.replicas).map((r) => str(obj(r).arn))].filter(
    (a): a is string => !!a,
  );
  for (const role of ROLES) {
    for (const f of v.functionsIn(role)) {
      const env = v.env(f);
      const id = f.name;
      if (env.CONTROL_TABLE !== name)
        out.push(`${role}: ${id} CONTROL_TABLE is ${env.CONTROL_TABLE}, not the authority ${name}`);
      if (env.CONTROL_TABLE_REGION !== wantRegion) {
        out.push(
          `${role}: ${id} has CONTROL_TABLE_REGION=${env.CONTROL_TABLE_REGION ?? "(unset)"}, expected ${wantRegion ?? "(unset)"}`,
        );
      }
      const region = env.CONTROL_TABLE_REGION ?? v.region(role);
      const arn = arnIn(v, table, region);
      if (!arn) out.push(`${role}: ${id} reads the control table in ${region}, where it has no replica`);
      else if (!v.can(f, "dynamodb:GetItem", arn))
        out.push(`${role}: ${id} may not GetItem on the control table in ${region}`);
      for (const a of allArns) {
        for (const action of NOT_GRANTED) {
          if (v.can(f, action, a)) out.push(`${role}: ${id} may ${action} on the control table ${a}`);
        }
      }
    }
  }
  return out;
}

/** The first item is written once, on the authority, and never again by a deploy. */
function itemProblems(v: View, name: string, table: CapturedResource): string[] {
  const out: string[] = [];
  const parse = (i: CapturedResource) => obj(JSON.parse(String(i.inputs.item ?? "{}")) as Json);
  const items = v
    .ofType("aws:dynamodb/tableItem:TableItem")
    .filter((i) => obj(parse(i).pk).S === "REGION_CONTROL");
  if (items.length !== 1) out.push(`${items.length} REGION_CONTROL items are written at deploy, expected 1`);
  for (const i of items) {
    const item = parse(i);
    if (i.inputs.tableName !== name)
      out.push(`${i.name} is written to ${i.inputs.tableName}, not the authority`);
    if (v.regionOf(i) !== v.regionOf(table)) out.push(`${i.name} is written in ${v.regionOf(i)}`);
    if (obj(item.active).S !== v.expected.activeRegion || obj(item.epoch).N !== "1") {
      out.push(
        `${i.name} names ${obj(item.active).S} under epoch ${obj(item.epoch).N}, expected ${v.expected.activeRegion} under 1`,
      );
    }
    if (!i.opts.ignoreChanges?.includes("item"))
      out.push(`${i.name} does not ignore changes to its item: a redeploy would undo a failover`);
  }
  for (const t of v.ofType("aws:dynamodb/table:Table")) {
    if (t !== table && /Control/.test(t.name)) out.push(`${t.name} is a control table besides the authority`);
  }
  return out;
}

/** The stage outputs: `failover.authority` and each Region's `control`, as the failover script reads them. */
function outputProblems(v: View, name: string): string[] {
  const out: string[] = [];
  const { regions, controlMode } = v.expected;
  const failover = obj(obj(v.capture.outputs).failover);
  const got = obj(failover.authority);
  const want = {
    table: name,
    mode: controlMode,
    regions: controlMode === "mrsc" ? [regions.primary, regions.standby] : [regions.witness],
    witness: controlMode === "mrsc" ? regions.witness : null,
  };
  const shown = { table: got.table, mode: got.mode, regions: got.regions, witness: got.witness ?? null };
  if (JSON.stringify(shown) !== JSON.stringify(want))
    out.push(`outputs: failover.authority is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  for (const role of ROLES) {
    const control = obj(failover[role]).control;
    if (control !== name) out.push(`outputs: failover.${role}.control is ${control}, not the authority`);
  }
  return out;
}

/** One authority with a third vote, read by every function (GetItem only), its first item written once. */
export const controlAuthority: Invariant = {
  name: "one Region authority (MRSC or single-region), GetItem only",
  check(v) {
    const { name, table } = authorityTable(v);
    if (!name || !table) return [`CONTROL_TABLE (${name}) is not a table of the app`];
    return [
      ...tableProblems(v, table),
      ...accessProblems(v, name, table),
      ...itemProblems(v, name, table),
      ...outputProblems(v, name),
    ];
  },
};
