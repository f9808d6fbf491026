import type { Server } from "node:http";
import { createQueues, createTables } from "../../../local/src/stack/create-resources";
import { localRegions, type RegionResources } from "../../../local/src/stack/regions";
import type { Emulators } from "../../../local/src/stack/start-emulators";
import { serveModel } from "../transport/serve-model";
import { installSimTransport } from "../transport/sim-transport";
import type { SimClock } from "../world/clock";
import { SimDynamoDb } from "./sim-dynamodb";
import { SimSes, SimSqs } from "./sim-messaging";

/** The models behind the simulated stand-ins, for the checker and the nemesis to read and fault. */
export interface SimModels {
  dynamodb: SimDynamoDb;
  sqs: SimSqs;
  ses: SimSes;
}

/**
 * What `startEmulators` gives the local stack, from the models: DynamoDB (and its streams), SQS and SES, each served
 * on a virtual port as the emulators are on real ones, with both Regions' resources made by the stack's own code.
 * Needs the in-process network installed.
 */
export async function startSimEmulators(clock: SimClock): Promise<Emulators & { models: SimModels }> {
  const { primary, standby } = localRegions();
  const models: SimModels = {
    dynamodb: new SimDynamoDb(clock),
    sqs: new SimSqs(clock, primary.region),
    ses: new SimSes(clock),
  };
  const servers = [
    serveModel((r) => models.dynamodb.route(r)),
    serveModel((r) => models.sqs.route(r)),
    serveModel((r) => models.ses.route(r), models.ses.store),
  ];
  const [dynamodb, sqs, ses] = await Promise.all(servers.map(listen));
  const endpoints = { dynamodb: dynamodb as string, sqs: sqs as string, ses: ses as string };
  // The SDK's requests skip the HTTP round trip and reach the models through its transport; anything else that
  // reaches an endpoint (aws-ses-v2-local's /store, a raw fetch) still finds the served model.
  const undoTransport = installSimTransport({
    [new URL(endpoints.dynamodb).host]: (r) => models.dynamodb.route(r),
    [new URL(endpoints.sqs).host]: (r) => models.sqs.route(r),
    [new URL(endpoints.ses).host]: (r) => models.ses.route(r),
  });
  const stop = async () => {
    undoTransport();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  };
  const withQueues = async (r: RegionResources) => {
    await createTables(endpoints.dynamodb, r);
    return { ...r, queues: await createQueues(endpoints.sqs, r) };
  };
  const regions = { primary: await withQueues(primary), standby: await withQueues(standby) };
  return { endpoints, processes: [], regions, stop, models };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`),
    ),
  );
}
