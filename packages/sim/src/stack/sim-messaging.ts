import type { HttpRequest } from "@smithy/types";
import { sesModelHandler } from "../ses/handler";
import { type SentEmail, SesModel } from "../ses/model";
import { sqsModelHandler } from "../sqs/handler";
import { SqsModel } from "../sqs/model";
import type { ExtraRoute } from "../transport/serve-model";
import { type ModelHandler, signedRegion } from "../transport/sim-transport";
import type { SimClock } from "../world/clock";

/**
 * SQS as fauxqs serves it locally: one endpoint and one store for both Regions (their queues have their Region's
 * role in their names), in the primary's Region, so a client of either Region reaches any queue by its URL, as the
 * local stack's observers and the passive Region's hand-over expect.
 */
export class SimSqs {
  readonly model: SqsModel;

  constructor(clock: SimClock, region: string) {
    this.model = new SqsModel({ clock, region, ids: idsFor(`sqs-${region}`), timers: worldTimers });
  }

  route(_request: HttpRequest): ModelHandler {
    return sqsModelHandler(this.model) as unknown as ModelHandler;
  }
}

/** SES v2 as aws-ses-v2-local serves it: a sink per Region, and its `GET /store` of every mail sent. */
export class SimSes {
  readonly regions = new Map<string, SesModel>();

  constructor(private readonly clock: SimClock) {}

  region(name: string): SesModel {
    let m = this.regions.get(name);
    if (!m) {
      m = new SesModel({ clock: this.clock, region: name, ids: idsFor(`ses-${name}`) });
      this.regions.set(name, m);
    }
    return m;
  }

  route(request: HttpRequest): ModelHandler {
    return sesModelHandler(this.region(signedRegion(request))) as unknown as ModelHandler;
  }

  /** aws-ses-v2-local's store, in its shape (`{ emails: [{ messageId, from, destination, subject, body, at }] }`). */
  readonly store: ExtraRoute = async (method, url) => {
    if (method !== "GET" || url.pathname !== "/store") return undefined;
    const since = Number(url.searchParams.get("since") ?? 0);
    const all = [...this.regions.values()].flatMap((m) => m.sent()).filter((e) => e.at / 1000 >= since);
    return { status: 200, body: { emails: all.sort((a, b) => a.at - b.at).map(storeShape) } };
  };
}

function storeShape(e: SentEmail) {
  return {
    messageId: e.messageId,
    from: e.from,
    destination: { to: e.to, cc: e.cc, bcc: e.bcc },
    subject: e.subject,
    body: { text: e.text, html: e.html },
    at: Math.floor(e.at / 1000),
  };
}

/** The timers in force when the model arms one: the world's virtual ones once it is installed. */
const worldTimers = {
  setTimeout: (fn: () => void, ms: number): unknown => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle: unknown): void => globalThis.clearTimeout(handle as NodeJS.Timeout),
};

/** Ids from a counter per service and Region: the same run gives the same ids, whatever else draws randomness. */
function idsFor(prefix: string): () => string {
  let n = 0;
  return () => {
    n += 1;
    const hex = n.toString(16).padStart(12, "0");
    const tag = Buffer.from(prefix).toString("hex").padEnd(8, "0").slice(0, 8);
    return `${tag}-0000-4000-8000-${hex}`;
  };
}
