import type { IncomingMessage, ServerResponse } from "node:http";

/** Who made a request, by the text in parentheses of its User-Agent (`effectively-once (live)`). */
export type Origin = "live" | "resolver" | "other";

/** Cumulative counters of every request the PSP handled; a load generator diffs two snapshots. */
export interface PspStats {
  requests: number;
  /** By route, ids folded: `POST /v1/charges`, `GET /v1/charges/{id}`, `other` for an unknown path. */
  by_endpoint: Record<string, number>;
  by_origin: Record<Origin, number>;
  /** Answers by HTTP status, as the client received them (a dropped reply has none). */
  by_status: Record<string, number>;
  rate_limited: number;
  by_origin_rate_limited: Record<Origin, number>;
  /** 503s answered at the edge during an outage: the request never ran. */
  outage_refused: number;
  /** Requests that ran and whose reply was dropped (psp_lose_reply, its rate, or an outage). */
  replies_dropped: number;
  /**
   * Requests held now in an injected delay or latency: a gauge, not a counter. The fault checker moves the clock
   * on only when it is 0, since no real PSP request lasts the hours a clock jump stands for.
   */
  held: number;
}

/** The counters of one PSP, updated as requests arrive and are answered. */
export interface StatsCounter {
  /** Counts a request on arrival and its answer's status when it is written; returns its origin. */
  arrived(req: IncomingMessage, res: ServerResponse, path: string): Origin;
  rateLimited(origin: Origin): void;
  outageRefused(): void;
  replyDropped(): void;
  snapshot(): PspStats;
}

/** The origin a User-Agent names; anything but our adapter's two tags is `other`. */
export function originOf(userAgent: string | undefined): Origin {
  const tag = /\(([^)]*)\)/
    .exec(userAgent ?? "")?.[1]
    ?.trim()
    .toLowerCase();
  return tag === "live" || tag === "resolver" ? tag : "other";
}

// Ids are folded so that the counters stay a handful of keys however many charges are looked up.
function endpointOf(method: string | undefined, path: string): string {
  if (path === "/v1/charges" || path === "/v1/refunds") return `${method} ${path}`;
  if (/^\/v1\/charges\/[^/]+$/.test(path)) return `${method} /v1/charges/{id}`;
  if (path === "/v1/payment_intents" || path === "/v1/payment_intents/search") return `${method} ${path}`;
  if (/^\/v1\/payment_intents\/[^/]+$/.test(path)) return `${method} /v1/payment_intents/{id}`;
  return "other";
}

const byOrigin = (): Record<Origin, number> => ({ live: 0, resolver: 0, other: 0 });
const bump = (rec: Record<string, number>, key: string) => {
  rec[key] = (rec[key] ?? 0) + 1;
};

/** Creates zeroed counters; nothing resets them afterwards. `held` reads the gauge of requests waiting now. */
export function createStats(held: () => number = () => 0): StatsCounter {
  // The counters only: `held` is a gauge read at each snapshot, never stored.
  const s: Omit<PspStats, "held"> = {
    requests: 0,
    by_endpoint: {},
    by_origin: byOrigin(),
    by_status: {},
    rate_limited: 0,
    by_origin_rate_limited: byOrigin(),
    outage_refused: 0,
    replies_dropped: 0,
  };
  return {
    arrived(req, res, path) {
      const origin = originOf(req.headers["user-agent"]);
      s.requests += 1;
      bump(s.by_endpoint, endpointOf(req.method, path));
      s.by_origin[origin] += 1;
      res.once("finish", () => bump(s.by_status, String(res.statusCode)));
      return origin;
    },
    rateLimited(origin) {
      s.rate_limited += 1;
      s.by_origin_rate_limited[origin] += 1;
    },
    outageRefused: () => {
      s.outage_refused += 1;
    },
    replyDropped: () => {
      s.replies_dropped += 1;
    },
    snapshot: () => ({ ...structuredClone(s), held: held() }),
  };
}
