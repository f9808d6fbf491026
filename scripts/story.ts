/**
 * Plays the seed's whole story (Part 13) on a private local stack, both Regions: the payment timeline and the stream
 * job's, with the faults armed at the seed's moments; prints the timeline (time, Region, actor, event, what the stores
 * hold) and the final count. `npm run story` exits 0 when the count is the seed's (one charge, m1 12,000 → 15,000,
 * one notification), 1 when it is not, 2 usage.
 */
import { DrillApi } from "../packages/local/src/drills/drill-api";
import { Timeline } from "../packages/local/src/drills/timeline";
import { startLocalStack } from "../packages/local/src/stack/start-stack";
import { formatStoryCount, isSeedCount } from "../packages/local/src/story/story-count";
import { castOfTheStory, playMainLine } from "../packages/local/src/story/story-main";

const USAGE = "usage: npm run story [-- --help]";
const args = process.argv.slice(2);
if (args.includes("--help")) {
  console.log(USAGE);
  process.exit(0);
}
if (args.length > 0) {
  console.error(`refused: ${args.join(" ")}: the branches (--branch) are not played yet\n${USAGE}`);
  process.exit(2);
}

// The worker's redelivery after its crash comes after the visibility timeout: short, so that the story takes seconds.
process.env.EVENTS_VISIBILITY_TIMEOUT_S ??= "2";
console.log("the story (Part 13): a payment tapped once, every hop losing an answer or repeating itself");
console.log("starting a private local stack (two Regions, replication lag 1.0 s)…");
const ports = { api: 0, standbyApi: 0, psp: 0, dynamodb: 0, sqs: 0, ses: 0 };
const stack = await startLocalStack({
  standby: true,
  replicationLagMs: 1_000,
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
  ports,
});
let code = 1;
try {
  const api = new DrillApi({ R1: stack.apiUrl, R2: stack.standbyUrl ?? stack.apiUrl });
  console.log("\n   time   Rg  actor           event");
  const timeline = new Timeline((line) => console.log(line));
  const cast = await castOfTheStory(stack, api, timeline);
  const count = await playMainLine(stack, cast, timeline);
  console.log(`\nfinal count:\n${formatStoryCount(count)}`);
  console.log("the seed's count: one charge (ch_1), one credit to m1 (12,000 → 15,000), one notification");
  code = isSeedCount(count) ? 0 : 1;
  console.log(code === 0 ? "verdict: the seed's count (exit 0)" : "verdict: NOT the seed's count (exit 1)");
} catch (err) {
  console.error(`the story could not finish: ${(err as Error).message}`);
} finally {
  await stack.stop();
}
process.exit(code);
