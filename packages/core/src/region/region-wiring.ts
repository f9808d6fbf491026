import { documentClient } from "../aws/document-client";
import { type AppConfig, loadConfig } from "../config/config";
import { type ActiveRegion, activeRegion } from "./active-region";
import { DynamoRegionControlStore } from "./dynamo-region-control";

let gate: ActiveRegion | undefined;

/** This Region's view of the Region control, built once per process; its cache is wall time, not the test clock. */
export function regionGate(config: AppConfig = loadConfig()): ActiveRegion {
  gate ??= activeRegion(
    config.regionRole,
    new DynamoRegionControlStore(documentClient(), config.controlTable),
    Date.now,
    config,
  );
  return gate;
}
