import { DynamoModel, type DynamoModelOptions } from "../dynamo/dynamo-model";
import { modelDynamoClient } from "../dynamo/dynamo-model-handler";
import type { SimClock } from "../world/clock";
import { createTables, type Target } from "./targets";

/** The corpus sends no time-dependent request the model would answer by its clock, so any fixed instant serves. */
const FIXED_CLOCK: SimClock = { now: () => Date.UTC(2026, 0, 1) };

/** The in-memory model as a target: a fresh model per run, its tables made through its own CreateTable. */
export function modelTarget(unsafe?: DynamoModelOptions["unsafe"]): Target {
  return {
    name: unsafe ? `model(unsafe ${JSON.stringify(unsafe)})` : "model",
    async open(prefix) {
      const model = new DynamoModel({ clock: FIXED_CLOCK, ...(unsafe ? { unsafe } : {}) });
      const client = modelDynamoClient(model, "us-east-1");
      await createTables(client, prefix);
      return { client, close: async () => client.destroy() };
    },
  };
}
