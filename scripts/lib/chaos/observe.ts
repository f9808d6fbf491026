import { type AttributeValue, DynamoDBClient, QueryCommand, ScanCommand } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { ChaosApi, emailOf } from "./chaos-api";
import { activeRole, readRegions, runningRoles } from "./resources";
import type { ClientView } from "./run-schedule";

/** A charge as the PSP recorded it (`GET /_local/psp/charges`). */
export interface PspCharge {
  id: string;
  idempotency_key: string;
  reference: string;
  amount: number;
  refunded: boolean;
  /** How many of its refunds the PSP failed after accepting them (Stripe fails them later: pm_card_refundFail). */
  refunds_failed?: number;
}

/** How many refunds of a payment's charge the PSP failed later: each took the merchant's debit back. */
export function failedRefundsOf(obs: Pick<Observation, "charges">, paymentId: string): number {
  return obs.charges.find((c) => c.reference === paymentId)?.refunds_failed ?? 0;
}

/** What the checker reads once the stack is quiet: the PSP's, the API's and the raw stores' own records. */
export interface Observation {
  /** Charges made during this run. */
  charges: PspCharge[];
  /** Each payment the run touched, as its owner reads it (`GET /payments/{id}`), with the owner's index. */
  payments: Map<string, { owner: number | undefined; row: Record<string, unknown> | undefined }>;
  /** Each merchant as the active Region reads it. */
  merchants: Array<{ balance: number; credits: number }>;
  /** Each merchant as every running Region reads it, once replication has shipped everything (two Regions). */
  merchantsByRegion: Record<string, Array<{ balance: number; credits: number }>>;
  screens: Array<{ shown: Array<{ replace_id: string; title: string }>; alerts: number }>;
  emails: Array<Array<{ subject: string }>>;
  backlog: number;
  /** Messages left in each queue of the active Region: visible plus in flight. */
  queues: Record<string, number>;
  outboxLeft: number;
  /** The journal legs of each payment, from the raw ledger table. */
  journal: Map<string, Array<{ account: string; side: string; amount: number }>>;
}

/** Reads everything the checker judges, through the API, the `/_local` routes and the raw tables and queues. */
export async function observe(
  api: ChaosApi,
  view: ClientView,
  heard: Iterable<string>,
  chargesBefore: Set<string>,
): Promise<Observation> {
  const all = await api.local<PspCharge[]>("GET", "/psp/charges");
  const charges = all.filter((c) => !chargesBefore.has(c.id));
  // Every payment id any client heard (under every key it used), and every one the PSP charged.
  const ids = new Set([...charges.map((c) => c.reference), ...heard]);
  const payments = new Map<string, { owner: number | undefined; row: Record<string, unknown> | undefined }>();
  for (const id of ids) payments.set(id, await ownerRead(api, view, id));
  const { res } = await readRegions(api);
  const merchantsByRegion: Observation["merchantsByRegion"] = {};
  for (const role of runningRoles(res)) {
    const regionApi = new ChaosApi(res.regions[role].api as string);
    merchantsByRegion[role] = await Promise.all(
      view.names.merchants.map((m) =>
        regionApi.local<{ balance: number; credits: number }>("GET", `/merchants/${m}`),
      ),
    );
  }
  const merchants = await Promise.all(
    view.names.merchants.map((m) =>
      api.local<{ balance: number; credits: number }>("GET", `/merchants/${m}`),
    ),
  );
  const screens = await Promise.all(
    view.names.callers.map((c) => api.local<Observation["screens"][number]>("GET", `/devices/${c}`)),
  );
  const emails = await Promise.all(
    view.names.callers.map((c) =>
      api.local<Array<{ subject?: string; content?: unknown }>>(
        "GET",
        `/emails?to=${encodeURIComponent(emailOf(c))}`,
      ),
    ),
  );
  const backlog = (await api.local<{ total: number }>("GET", "/backlog")).total;
  const raw = await rawReads(api, [...ids]);
  return {
    charges,
    payments,
    merchants,
    merchantsByRegion,
    screens,
    emails: emails.map((list) => list.map(subjectOf)),
    backlog,
    ...raw,
  };
}

async function ownerRead(api: ChaosApi, view: ClientView, id: string) {
  for (const [i, caller] of view.names.callers.entries()) {
    const a = await api.payment(caller, id);
    if (a.status === 200) return { owner: i, row: a.body };
  }
  return { owner: undefined, row: undefined };
}

// aws-ses-v2-local keeps the subject in a few shapes across versions; the checker reads whichever is there.
function subjectOf(e: { subject?: string; content?: unknown }): { subject: string } {
  if (typeof e.subject === "string") return { subject: e.subject };
  const simple = (e.content as { Simple?: { Subject?: { Data?: string } } } | undefined)?.Simple;
  return { subject: simple?.Subject?.Data ?? JSON.stringify(e).slice(0, 200) };
}

const clients = new Map<string, unknown>();

/** One client per store and Region for the process: building one resolves its whole configuration each time. */
function cached<T>(key: string, make: () => T): T {
  let c = clients.get(key) as T | undefined;
  if (c === undefined) {
    c = make();
    clients.set(key, c);
  }
  return c;
}

/** The active Region's raw stores' clients, from `GET /_local/resources`; the caller destroys them. */
async function rawClients(api: ChaosApi) {
  const { res, view } = await readRegions(api);
  const role = activeRole(view);
  const active = res.regions[role];
  const config = { region: active.region, credentials: res.credentials };
  const db = cached(
    `ddb ${res.endpoints.dynamodb} ${active.region}`,
    () => new DynamoDBClient({ ...config, endpoint: res.endpoints.dynamodb }),
  );
  const sqs = cached(
    `sqs ${res.endpoints.sqs} ${active.region}`,
    () => new SQSClient({ ...config, endpoint: res.endpoints.sqs }),
  );
  // The other running Region's queues count too: a passive Region's queue or DLQ can hold an event it has yet to
  // hand over (a partition's refusals), and a quiesce that looked at the active Region alone ended too early.
  const others = runningRoles(res)
    .filter((r) => r !== role)
    .map((r) => ({ role: r, queues: res.regions[r].queues }));
  // The clients are the process's (see `cached`): a reader leaves them for the next one.
  const destroy = () => undefined;
  return { active, others, db, sqs, destroy };
}

/**
 * The messages left in the queues of every running Region (the active one's by name, another's as `{role}.{name}`)
 * and the active Region's outbox items not yet relayed, read raw.
 */
export async function readDepths(
  api: ChaosApi,
): Promise<{ queues: Record<string, number>; outboxLeft: number }> {
  const raw = await rawClients(api);
  try {
    return await depthsOf(raw);
  } finally {
    raw.destroy();
  }
}

async function depthsOf({ active, others, db, sqs }: Awaited<ReturnType<typeof rawClients>>) {
  const queues: Record<string, number> = {};
  for (const [name, url] of Object.entries(active.queues)) queues[name] = await depth(sqs, url);
  for (const other of others)
    for (const [name, url] of Object.entries(other.queues))
      queues[`${other.role}.${name}`] = await depth(sqs, url);
  return { queues, outboxLeft: await outboxEntries(db, active.tables.ledger) };
}

// The outbox's entries in the sparse index, whatever key (or shard of it) the writer chose: a scan of the index,
// every page, for the keys that begin with OUTBOX. Once the stack is quiet the index holds only what is left.
async function outboxEntries(db: DynamoDBClient, table: string): Promise<number> {
  let n = 0;
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: table,
        IndexName: "gsi1",
        FilterExpression: "begins_with(gsi1pk, :outbox)",
        ExpressionAttributeValues: { ":outbox": { S: "OUTBOX" } },
        Select: "COUNT",
        ExclusiveStartKey: start,
      }),
    );
    n += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return n;
}

// One read of the resources and one set of clients for the depths and every payment's journal.
async function rawReads(api: ChaosApi, ids: string[]) {
  const raw = await rawClients(api);
  try {
    const journal = new Map<string, Array<{ account: string; side: string; amount: number }>>();
    for (const id of ids) journal.set(id, await journalOf(raw.db, raw.active.tables.ledger, id));
    return { ...(await depthsOf(raw)), journal };
  } finally {
    raw.destroy();
  }
}

async function depth(sqs: SQSClient, url: string): Promise<number> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  const a = out.Attributes ?? {};
  return Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0);
}

async function journalOf(db: DynamoDBClient, table: string, id: string) {
  const out = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :j)",
      ExpressionAttributeValues: { ":pk": { S: `PAY#${id}` }, ":j": { S: "JOURNAL#" } },
    }),
  );
  // One item per balanced entry, its legs in a list: the checker judges the legs.
  return (out.Items ?? []).flatMap((entry) =>
    (entry.legs?.L ?? []).map(({ M: leg }) => ({
      account: leg?.account?.S ?? "",
      side: leg?.side?.S ?? "",
      amount: Number(leg?.amount?.N ?? 0),
    })),
  );
}
