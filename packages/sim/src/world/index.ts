export type { SimClock } from "./clock.js";
export { createWorld, type RunBudget, World, type WorldOptions, type WorldStats } from "./create-world.js";
export { SeededRandom } from "./seeded-random.js";
export { WorldBudgetExceeded, WorldStalled, WorldTaskFailed, WorldUnsupported } from "./world-errors.js";
export type { TaskState, WorldTask } from "./world-task.js";
