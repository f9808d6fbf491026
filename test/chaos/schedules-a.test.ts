import { chaosSchedules } from "./support/chaos-file";

// Half of the 100 schedules npm test plays (schedules-b.test.ts has the other half, on its own stack).
chaosSchedules(20261201, Number(process.env.CHAOS_TEST_RUNS ?? 14));
