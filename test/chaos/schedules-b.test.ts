import { chaosSchedules } from "./support/chaos-file";

// The other half of the 100 schedules npm test plays (see schedules-a.test.ts).
chaosSchedules(20261202, Number(process.env.CHAOS_TEST_RUNS ?? 7));
