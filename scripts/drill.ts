/**
 * Plays one of the seed's Region drills on a private local stack (free ports) and prints its timeline (time,
 * Region, actor, event) and the final count: `npm run drill -- F` (also F2, and the counterfactuals
 * F-attempt-key, F-random-event-id, F2-both-active). Exit 0 when the count is the seed's, 1 when it is not
 * (a counterfactual is expected to end there), 2 usage.
 */
import { DRILLS } from "../packages/local/src/drills/drills";
import { formatCount } from "../packages/local/src/drills/final-count";
import { startLocalStack } from "../packages/local/src/stack/start-stack";

const name = process.argv[2] ?? "";
const drill = DRILLS[name];
if (!drill) {
  console.error(`usage: npm run drill -- <${Object.keys(DRILLS).join("|")}>`);
  for (const [n, d] of Object.entries(DRILLS)) console.error(`  ${n.padEnd(18)} ${d.description}`);
  process.exit(name === "--help" ? 0 : 2);
}

console.log(`drill ${name}: ${drill.description}`);
console.log("starting a private local stack (two Regions, replication lag 1.0 s)…");
const ports = { api: 0, standbyApi: 0, psp: 0, dynamodb: 0, sqs: 0, ses: 0 };
const stack = await startLocalStack({ ...drill.stack, ports });
let code = 1;
try {
  console.log("\n   time   Rg  actor           event");
  const result = await drill.run(stack, (line) => console.log(line));
  console.log(`\nfinal count:\n${formatCount(result.count)}`);
  console.log(`the seed's count: ${result.expected}`);
  if (result.matchesSeed) console.log("verdict: the seed's count (exit 0)");
  else if (!drill.seedCount)
    console.log("verdict: NOT the seed's count, as this counterfactual shows (exit 1)");
  else console.log("verdict: NOT the seed's count (exit 1)");
  code = result.matchesSeed ? 0 : 1;
} catch (err) {
  console.error(`the drill could not finish: ${(err as Error).message}`);
} finally {
  await stack.stop();
}
process.exit(code);
