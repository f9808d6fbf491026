// A first run of the stack on the models: one payment tapped once, in virtual time.
import { ApiClient, order42 } from "../../../test/support/api-client";
import { startSimStack } from "../src/stack/start-sim-stack";
import { createWorld } from "../src/world/index";

const standby = process.argv.includes("--standby");
const world = createWorld({
  seed: Number(process.env.SEED ?? 1),
  startMs: Date.UTC(2026, 11, 6),
  realIo: "await",
});
const wall = () => Number(process.hrtime.bigint() / 1_000_000n);
try {
  const stack = await world.run(() =>
    startSimStack(world.clock, { standby, resolverEveryMs: 0, sweepsEveryMs: 0 }),
  );
  const api = new ApiClient(stack.apiUrl);
  const paid = await world.run(async () => {
    const token = await api.token("probe");
    return api.pay(token, "probe-k1", order42());
  });
  console.log(JSON.stringify({ status: paid.status, body: paid.body }));
  await world.runFor(30_000);
  console.log(JSON.stringify({ charges: stack.psp.charges().length, emails: stack.models.ses.regions.size }));
  await world.run(() => stack.stop());
  console.log(JSON.stringify(world.stats()));
} finally {
  world.uninstall();
  void wall;
}
