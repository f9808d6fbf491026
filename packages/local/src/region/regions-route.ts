import type { RegionRole } from "@eo/core";
import { clock, loadTunables, mayDrainDeliver, namesActive, type RegionControl } from "@eo/core";
import type { Replicator } from "../replication/start-replicator";
import type { LocalAnswer } from "../runtime/http-front";
import { problem } from "../runtime/http-front";
import type { Emulators } from "../stack/start-emulators";
import { authorityStore, controlStore } from "./control-table";
import type { RegionFlags } from "./region-flags";

/** What `/_local/regions` reads and changes: the Regions' up flags, their control copies and the replication. */
export interface RegionsRouteSources {
  emulators: Emulators;
  flags: RegionFlags;
  /** The replicator, when the standby runs: a failed Region's unshipped writes stay unshipped. */
  replicator?: Replicator;
}

const ROLES: readonly RegionRole[] = ["primary", "standby"];

/**
 * `/_local/regions` (and `/fail`, `/recover`, `/partition`, `/heal`) and `/_local/replication`; undefined when not
 * one of them.
 */
export async function regionsRoute(
  src: RegionsRouteSources,
  method: string,
  path: string,
  body: Buffer,
): Promise<LocalAnswer | undefined> {
  if (method === "GET" && path === "/_local/regions") return { status: 200, body: await regionsView(src) };
  if (path === "/_local/replication") return replicationRoute(src, method, body);
  const m = /^\/_local\/regions\/([^/]+)\/(fail|recover|partition|heal)$/.exec(path);
  if (method !== "POST" || !m) return undefined;
  const role = m[1] as RegionRole;
  if (!ROLES.includes(role)) {
    return { status: 404, body: problem(404, "Not Found", `no Region ${m[1]}; Regions: primary, standby`) };
  }
  const change = m[2] as "fail" | "recover" | "partition" | "heal";
  if (change === "partition") {
    const shape = partitionShape(body);
    if (typeof shape === "string") return { status: 400, body: problem(400, "Bad Request", shape) };
    src.flags.partition(role, shape.operatorReaches);
  } else src.flags[change](role);
  // A Region down or cut off ships nothing and receives nothing; its unshipped writes wait, as in AWS.
  if (src.flags.isConnected(role)) src.replicator?.recoverRegion(role);
  else src.replicator?.failRegion(role);
  return { status: 200, body: await regionsView(src) };
}

/**
 * The partition's shape from its body: `{"operator_reaches": true}` is AWS's (the operator's machine still reaches
 * the Region's tables); none, or false, cuts the operator off too. A string is why the body is refused.
 */
function partitionShape(body: Buffer): { operatorReaches: boolean } | string {
  let asked: { operator_reaches?: unknown };
  try {
    asked = JSON.parse(body.toString("utf8") || "{}");
  } catch {
    return 'the body must be JSON such as {"operator_reaches": true}, or empty';
  }
  const reaches = asked?.operator_reaches;
  if (reaches !== undefined && typeof reaches !== "boolean") return "operator_reaches must be true or false";
  return { operatorReaches: reaches === true };
}

/**
 * The contract's view: the authority (what decides), and beside it each Region's own view: whether it is up, cut
 * off, what it concludes from the authority as it can reach it, and its own copy (which nothing acts on).
 */
export async function regionsView(src: RegionsRouteSources) {
  const authority = await authorityStore(src.emulators)
    .read()
    .catch(() => undefined);
  const copies = await Promise.all(
    ROLES.map((r) =>
      controlStore(src.emulators, r)
        .read()
        .catch(() => undefined),
    ),
  );
  // On the clock the gates compare `active_from` with (region-wiring.ts): the stack's, which tests move.
  const now = clock.now();
  return {
    active: authority?.active,
    epoch: authority?.epoch,
    authority: {
      active: authority?.active,
      epoch: authority?.epoch,
      ...(authority?.active_from ? { active_from: new Date(authority.active_from).toISOString() } : {}),
      ...(authority?.drains ? { drains: authority.drains } : {}),
      reason: authority?.reason,
      reachable_from: Object.fromEntries(ROLES.map((r) => [r, src.flags.isConnected(r)])),
    },
    regions: Object.fromEntries(ROLES.map((r, i) => [r, regionView(src, r, authority, now, copies[i])])),
    replication: replicationView(src),
  };
}

function regionView(
  src: RegionsRouteSources,
  role: RegionRole,
  authority: RegionControl | undefined,
  now: number,
  copy: RegionControl | undefined,
) {
  const reaches = src.flags.isConnected(role);
  const acts = !src.flags.isUp(role)
    ? "down"
    : reaches && namesActive(authority, role, now)
      ? "active"
      : // Draining only while it may still start a delivery that ends before the switch (delivery-window.ts).
        reaches && mayDrainDeliver(authority, role, now, loadTunables(process.env))
        ? "draining"
        : "passive";
  return {
    up: src.flags.isUp(role),
    partitioned: src.flags.isPartitioned(role),
    // AWS's shape of a partition: cut off from its peer and the authority, but the operator's machine reaches it.
    operator_reaches:
      src.flags.isUp(role) && (!src.flags.isPartitioned(role) || src.flags.operatorReaches(role)),
    reaches_authority: reaches,
    acts_as: acts,
    control: copy ?? null,
  };
}

function replicationView(src: RegionsRouteSources) {
  if (!src.replicator) return { lag_ms: 0, pending: 0, idle: true, paused: false, running: false };
  const { lag_ms, pending, idle, paused } = src.replicator.status();
  return { lag_ms, pending, idle, paused, running: true };
}

/** `GET /_local/replication`, and `POST` with `{"lag_ms": 1000}` or `{"paused": true|false}`. */
function replicationRoute(src: RegionsRouteSources, method: string, body: Buffer): LocalAnswer {
  const r = src.replicator;
  if (!r)
    return {
      status: 409,
      body: problem(409, "Conflict", "no replication: the standby Region is not running"),
    };
  if (method === "GET") return { status: 200, body: r.status() };
  if (method !== "POST") return { status: 405, body: problem(405, "Method Not Allowed", "GET or POST") };
  let asked: { lag_ms?: unknown; paused?: unknown };
  try {
    asked = JSON.parse(body.toString("utf8") || "{}");
  } catch {
    return {
      status: 400,
      body: problem(400, "Bad Request", 'the body must be JSON such as {"lag_ms": 1000}'),
    };
  }
  const lag = asked.lag_ms;
  if (lag !== undefined && !(typeof lag === "number" && Number.isFinite(lag) && lag >= 0)) {
    return {
      status: 400,
      body: problem(
        400,
        "Bad Request",
        `lag_ms must be a non-negative number of ms (got ${JSON.stringify(lag)})`,
      ),
    };
  }
  if (asked.paused !== undefined && typeof asked.paused !== "boolean") {
    return { status: 400, body: problem(400, "Bad Request", "paused must be true or false") };
  }
  if (lag === undefined && asked.paused === undefined) {
    return { status: 400, body: problem(400, "Bad Request", 'name lag_ms or paused, e.g. {"lag_ms": 1000}') };
  }
  if (typeof lag === "number") r.setLag(lag);
  if (asked.paused === true) r.pause();
  if (asked.paused === false) r.resume();
  return { status: 200, body: r.status() };
}
