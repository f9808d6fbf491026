import { randomUUID } from "node:crypto";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  type AppConfig,
  type PspPort,
  parseIdempotencyKey,
  parsePaymentBody,
  pspPortOf,
  scopeOf,
} from "@eo/core";
import { bodyOf, callerOf, httpHandler } from "../packages/functions/src/shared/http-handler";
/** Anything that meters a client's DynamoDB requests (the payments bench's meter, the cost meter). */
export interface ClientMeter {
  attach(client: { middlewareStack: DynamoDBClient["middlewareStack"] }): void;
}

/** The baselines' work: charge with a key of this attempt and write the payment row, no durable guard. */
function chargeAndRecord(config: AppConfig, db: DynamoDBDocumentClient, psp: PspPort) {
  return async (p: { scope?: string; caller: string; request: ReturnType<typeof parsePaymentBody> }) => {
    const paymentId = `pay_${randomUUID().replaceAll("-", "")}`;
    const { amount, currency, payment_method } = p.request;
    const reply = await psp.charge(
      `${paymentId}:charge`,
      { amount, currency, payment_method, reference: paymentId },
      5_000,
    );
    const state = reply.kind === "done" ? "SUCCEEDED" : "UNKNOWN";
    const row = {
      pk: `PAY#${paymentId}`,
      sk: "PAYMENT",
      payment_id: paymentId,
      caller: p.caller,
      ...p.request,
      state,
    };
    await db.send(new PutCommand({ TableName: config.ledgerTable, Item: row }));
    return { status: 201, body: { payment_id: paymentId, state } };
  };
}

/** POST /payments as "Powertools idempotency alone": the stock persistence layer, no ledger guard. */
export function powertoolsOnly(config: AppConfig, meter: ClientMeter) {
  const raw = new DynamoDBClient({});
  const db = DynamoDBDocumentClient.from(raw);
  meter.attach(raw);
  const work = chargeAndRecord(config, db, portOf(config));
  const store = new DynamoDBPersistenceLayer({
    tableName: config.claimTable,
    keyAttr: "id",
    awsSdkV3Client: raw,
  });
  const idemConfig = new IdempotencyConfig({
    eventKeyJmesPath: "scope",
    expiresAfterSeconds: config.keyWindowS,
  });
  const idem = makeIdempotent(work, { persistenceStore: store, config: idemConfig });
  return httpHandler("bench-powertools", async (event, context) => {
    idemConfig.registerLambdaContext(context);
    const key = parseIdempotencyKey(event.headers["idempotency-key"]);
    const caller = callerOf(event);
    return idem({ scope: `bench:${scopeOf(caller, key)}`, caller, request: parsePaymentBody(bodyOf(event)) });
  });
}

/** POST /payments with no idempotency at all. */
export function noIdempotency(config: AppConfig, meter: ClientMeter) {
  const raw = new DynamoDBClient({});
  meter.attach(raw);
  const work = chargeAndRecord(config, DynamoDBDocumentClient.from(raw), portOf(config));
  return httpHandler("bench-none", async (event) => {
    parseIdempotencyKey(event.headers["idempotency-key"]);
    return work({ caller: callerOf(event), request: parsePaymentBody(bodyOf(event)) });
  });
}

/** The stage's PSP port (its dialect's adapter), as paymentDeps builds it. */
function portOf(config: AppConfig): PspPort {
  return pspPortOf({ psp: config.psp, pspUrl: config.pspUrl, apiKey: () => config.pspApiKey });
}
