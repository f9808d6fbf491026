import type { IncomingMessage } from "node:http";
import { advanceClock, armedFaults, armFault, clearFaults, clock, parseFaultRequest } from "@eo/core";
import { apiReferenceAnswer } from "../docs/api-reference";
import type { LocalAnswer, LocalRoutes } from "../runtime/http-front";
import { problem } from "../runtime/http-front";
import { NotKeptByExternalPsp } from "./external-psp";

/** What the inspection routes read from the running stack. */
export interface LocalRouteSources {
  health: () => Promise<{ ok: boolean; services: Record<string, boolean>; pids: Record<string, number> }>;
  pspCharges: () => unknown;
  /** The fake PSP's cumulative counters (by endpoint, origin, 429s, outage), which a load generator diffs. */
  pspStats: () => unknown;
  /** Sends the PSP's webhook events of a payment (all when absent) again, oldest first; returns how many. */
  pspRedeliver?: (reference?: string) => number;
  sesEndpoint: string;
  runJob: (name: string) => Promise<unknown>;
  jobNames: () => string[];
  /** Extra inspection routes (devices, merchants) added by the async half. */
  extra?: Array<{
    method: string;
    pattern: RegExp;
    answer: (m: RegExpExecArray, url: URL) => Promise<LocalAnswer>;
  }>;
}

/** The contract's `/_local` inspection and fault API; it exists only in the local stack. */
export function localRoutes(src: LocalRouteSources): LocalRoutes {
  return async (req: IncomingMessage, url: URL, body: Buffer) => {
    const route = `${req.method} ${url.pathname}`;
    try {
      if (route === "GET /_local/health") {
        const h = await src.health();
        return { status: h.ok ? 200 : 503, body: h };
      }
      if (req.method === "GET") {
        const docs = apiReferenceAnswer(url.pathname);
        if (docs) return docs;
      }
      if (route === "GET /_local/faults") return { status: 200, body: armedFaults() };
      if (route === "POST /_local/faults") return armFaults(body);
      if (route === "DELETE /_local/faults") {
        // What was still armed when it was cleared, so that a fault schedule knows exactly which ones fired.
        return { status: 200, body: { armed: {}, cleared: clearFaults() } };
      }
      if (route === "POST /_local/clock") return moveClock(body);
      if (route === "GET /_local/clock") return { status: 200, body: { now: clock.now() } };
      if (route === "GET /_local/psp/charges") return { status: 200, body: src.pspCharges() };
      if (route === "GET /_local/psp/stats") return { status: 200, body: src.pspStats() };
      if (route === "POST /_local/psp/redeliver" && src.pspRedeliver)
        return redeliver(src.pspRedeliver, body);
      if (route === "GET /_local/emails") return emails(src.sesEndpoint, url.searchParams.get("to"));
      const job = /^POST \/_local\/run\/([\w-]+)$/.exec(route);
      if (job?.[1]) return runJob(src, job[1]);
      for (const r of src.extra ?? []) {
        const m = r.method === req.method ? r.pattern.exec(url.pathname) : null;
        if (m) return r.answer(m, url);
      }
      return undefined;
    } catch (err) {
      // A record only the fake PSP keeps, asked of a stack that calls a real one (npm start with PSP_URL).
      if (err instanceof NotKeptByExternalPsp)
        return { status: 501, body: problem(501, "Not Implemented", err.message) };
      return { status: 400, body: problem(400, "Bad Request", (err as Error).message) };
    }
  };
}

function json(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8") || "{}");
  } catch {
    throw new Error("the body must be JSON");
  }
}

function armFaults(body: Buffer): LocalAnswer {
  for (const f of parseFaultRequest(json(body))) armFault(f.name, f.value, f.n);
  return { status: 200, body: { armed: armedFaults() } };
}

// Redelivery replays events already sent, so a generated schedule can make an old event arrive after a newer one.
function redeliver(pspRedeliver: (reference?: string) => number, body: Buffer): LocalAnswer {
  const req = json(body);
  if (typeof req !== "object" || req === null || Array.isArray(req))
    throw new Error(
      'the body must be a JSON object such as {"reference": "pay_1"}, or empty for every event',
    );
  const { reference } = req as { reference?: unknown };
  if (reference !== undefined && (typeof reference !== "string" || reference === ""))
    throw new Error(`reference must be a non-empty string (a payment id), not ${JSON.stringify(reference)}`);
  return { status: 200, body: { redelivered: pspRedeliver(reference) } };
}

function moveClock(body: Buffer): LocalAnswer {
  const advance = Number((json(body) as { advance_s?: unknown }).advance_s);
  if (!Number.isFinite(advance) || advance < 0)
    throw new Error('advance_s must be a non-negative number, e.g. {"advance_s": 7200}');
  return { status: 200, body: { now: advanceClock(advance * 1000) } };
}

async function runJob(src: LocalRouteSources, name: string): Promise<LocalAnswer> {
  if (!src.jobNames().includes(name)) {
    return {
      status: 404,
      body: problem(404, "Not Found", `no job ${name}; jobs: ${src.jobNames().join(", ")}`),
    };
  }
  return { status: 200, body: { job: name, result: await src.runJob(name) } };
}

async function emails(sesEndpoint: string, to: string | null): Promise<LocalAnswer> {
  const res = await fetch(`${sesEndpoint}/store`);
  const store = (await res.json()) as { emails: Array<{ destination?: { to?: string[] } }> };
  const list = to ? store.emails.filter((e) => e.destination?.to?.includes(to)) : store.emails;
  return { status: 200, body: list };
}
