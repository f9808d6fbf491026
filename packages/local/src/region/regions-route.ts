import type { RegionRole } from "@eo/core";
import type { Replicator } from "../replication/start-replicator";
import type { LocalAnswer } from "../runtime/http-front";
import { problem } from "../runtime/http-front";
import type { Emulators } from "../stack/start-emulators";
import { controlStore } from "./control-table";
import type { RegionFlags } from "./region-flags";

/** What `/_local/regions` reads and changes: the Regions' up flags, their control copies and the replication. */
export interface RegionsRouteSources {
  emulators: Emulators;
  flags: RegionFlags;
  /** The replicator, when the standby runs: a failed Region's unshipped writes stay unshipped. */
  replicator?: Replicator;
}

const ROLES: readonly RegionRole[] = ["primary", "standby"];

/** `/_local/regions` (and `/fail`, `/recover`) and `/_local/replication`; undefined when not one of them. */
export async function regionsRoute(
  src: RegionsRouteSources,
  method: string,
  path: string,
  body: Buffer,
): Promise<LocalAnswer | undefined> {
  if (method === "GET" && path === "/_local/regions") return { status: 200, body: await regionsView(src) };
  if (path === "/_local/replication") return replicationRoute(src, method, body);
  const m = /^\/_local\/regions\/([^/]+)\/(fail|recover)$/.exec(path);
  if (method !== "POST" || !m) return undefined;
  const role = m[1] as RegionRole;
  if (!ROLES.includes(role)) {
    return { status: 404, body: problem(404, "Not Found", `no Region ${m[1]}; Regions: primary, standby`) };
  }
  if (m[2] === "fail") {
    src.flags.fail(role);
    src.replicator?.failRegion(role);
  } else {
    src.flags.recover(role);
    src.replicator?.recoverRegion(role);
  }
  return { status: 200, body: await regionsView(src) };
}

/** The contract's view: which Region is active under which epoch, who is up, and the replication's state. */
async function regionsView(src: RegionsRouteSources) {
  // Each Region keeps its own copy; the one with the higher epoch is the latest decision.
  const copies = await Promise.all(
    ROLES.map((r) =>
      controlStore(src.emulators, r)
        .read()
        .catch(() => undefined),
    ),
  );
  const latest = copies.reduce((a, b) => ((b?.epoch ?? 0) > (a?.epoch ?? 0) ? b : a), undefined);
  return {
    active: latest?.active,
    epoch: latest?.epoch,
    regions: Object.fromEntries(
      ROLES.map((r, i) => [r, { up: src.flags.isUp(r), control: copies[i] ?? null }]),
    ),
    replication: replicationView(src),
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
