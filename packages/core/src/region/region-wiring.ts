import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { documentClient } from "../aws/document-client";
import { clock } from "../clock/clock";
import { type AppConfig, loadConfig } from "../config/config";
import { type ActiveRegion, activeRegion } from "./active-region";
import { DynamoRegionControlStore } from "./dynamo-region-control";
import type { RegionControlStore } from "./region-control";

let gate: ActiveRegion | undefined;

/**
 * EO_TEST_UNSAFE_TRUST_OWN_COPY=1 makes a Region read its own copy of the control (its own table, in its own
 * database) instead of the authority: the design before the authority, in which a Region that comes back after a
 * failure, or is cut off from the other, goes on acting on what it last believed.
 */
export const unsafeTrustOwnCopy = (): boolean => process.env.EO_TEST_UNSAFE_TRUST_OWN_COPY === "1";

/**
 * This Region's view of the authority, built once per process: its cache ages on wall time, and `active_from` is
 * compared with the domain's clock (the local stack's moved clock; wall time in AWS).
 */
export function regionGate(config: AppConfig = loadConfig()): ActiveRegion {
  if (gate) return gate;
  const authority = new DynamoRegionControlStore(authorityClient(config), config.controlTable);
  const ownCopy = new DynamoRegionControlStore(documentClient(), config.controlTable);
  // Chosen on each read, so that a drill can switch one Region's belief on and off while it runs.
  const store: RegionControlStore = {
    read: (options) => (unsafeTrustOwnCopy() ? ownCopy : authority).read(options),
    write: (next) => (unsafeTrustOwnCopy() ? ownCopy : authority).write(next),
  };
  // The time is read at each call, not captured: a simulation moves the clock under a process that lives on.
  gate = activeRegion(
    config.regionRole,
    store,
    () => Date.now(),
    config,
    () => clock.now(),
  );
  return gate;
}

/**
 * The authority's client: this Region's replica in AWS (MRSC), or the table's Region when it lives elsewhere. Its
 * retries are few and its timeouts bounded, so a Region cut off from the authority turns passive within seconds
 * instead of hanging a request on it (and a busy table still answers within them).
 */
function authorityClient(config: AppConfig): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
      ...(config.controlRegion ? { region: config.controlRegion } : {}),
      ...(config.controlEndpoint ? { endpoint: config.controlEndpoint } : {}),
    }),
  );
}
