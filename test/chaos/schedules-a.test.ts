import { chaosSchedules } from "./support/chaos-file";

// The emulator stack's smoke sample (schedules-b.test.ts plays as many, on its own stack); the simulation plays the
// generated schedules at scale (test/sim/).
chaosSchedules(20261201, Number(process.env.CHAOS_TEST_RUNS ?? 7));
