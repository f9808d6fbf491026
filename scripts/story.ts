/**
 * Plays the seed's whole story (Part 13) on a private local stack, both Regions: the payment timeline and the stream
 * job's, with the faults armed at the seed's moments; prints the timeline (time, Region, actor, event, what the stores
 * hold) and the final count. `npm run story` exits 0 when the count is the seed's (one charge, m1 12,000 → 15,000,
 * one notification), 1 when it is not, 2 usage. `--branch <name>` plays a branch with its guard taken away and exits
 * 1 with the seed's failure shown (0 never: a branch is not the seed's count), 3 when it did not show. The branches
 * 3a–3d, R, V and M are scenes of their own, each played twice on the same stack: with its guard, then with its
 * switch.
 */

import { writeFileSync } from "node:fs";
import { DrillApi } from "../packages/local/src/drills/drill-api";
import { DRILLS } from "../packages/local/src/drills/drills";
import { formatCount } from "../packages/local/src/drills/final-count";
import { Timeline } from "../packages/local/src/drills/timeline";
import { startLocalStack } from "../packages/local/src/stack/start-stack";
import {
  DRILL_BRANCHES,
  STORY_BRANCHES,
  STORY_SCENES,
  STORY_STACK,
} from "../packages/local/src/story/story-branches";
import { formatStoryCount, isSeedCount } from "../packages/local/src/story/story-count";
import { storyHtml } from "../packages/local/src/story/story-html";
import { castOfTheStory, playMainLine } from "../packages/local/src/story/story-main";
import { playScene } from "../packages/local/src/story/story-scenes";

const NAMES = [...Object.keys(STORY_BRANCHES), ...Object.keys(STORY_SCENES), ...Object.keys(DRILL_BRANCHES)];
const USAGE = `usage: npm run story [-- --branch <${NAMES.join("|")}>] [--html <file>]`;
const args = process.argv.slice(2);
if (args.includes("--help")) {
  console.log(USAGE);
  for (const [n, b] of Object.entries({ ...STORY_BRANCHES, ...STORY_SCENES }))
    console.log(`  ${n.padEnd(4)} ${b.description}`);
  for (const n of Object.keys(DRILL_BRANCHES)) console.log(`  ${n.padEnd(4)} ${DRILLS[n]?.description}`);
  process.exit(0);
}
const flags = new Map<string, string>();
for (let i = 0; i < args.length; i += 2) {
  const [flag, value] = [args[i] ?? "", args[i + 1]];
  if (!["--branch", "--html"].includes(flag) || value === undefined || flags.has(flag)) {
    console.error(`refused: ${args.join(" ")}\n${USAGE}`);
    process.exit(2);
  }
  flags.set(flag, value);
}
const branch = flags.get("--branch");
const htmlFile = flags.get("--html");
if (htmlFile && branch && (DRILL_BRANCHES[branch] || STORY_SCENES[branch])) {
  console.error(`refused: --html draws the main line's timeline; branch ${branch} prints its own\n${USAGE}`);
  process.exit(2);
}
if (branch !== undefined && !NAMES.includes(branch)) {
  console.error(`refused: no branch ${branch}\n${USAGE}`);
  process.exit(2);
}

// The worker's redelivery after its crash comes after the visibility timeout: short, so that the story takes seconds.
process.env.EVENTS_VISIBILITY_TIMEOUT_S ??= "2";
const drill = branch && DRILL_BRANCHES[branch] ? DRILLS[DRILL_BRANCHES[branch]] : undefined;
const played = branch ? STORY_BRANCHES[branch] : undefined;
const scene = branch ? STORY_SCENES[branch] : undefined;
console.log(
  branch
    ? `the story, branch ${branch}: ${played?.description ?? scene?.description ?? drill?.description}`
    : "the story (Part 13): a payment tapped once, every hop losing an answer or repeating itself",
);
console.log("starting a private local stack (two Regions, replication lag 1.0 s)…");
const ports = { api: 0, standbyApi: 0, psp: 0, dynamodb: 0, sqs: 0, ses: 0 };
const stack = await startLocalStack({ ...(drill?.stack ?? STORY_STACK), ports });
let code = 1;
try {
  console.log("\n   time   Rg  actor           event");
  const timeline = new Timeline((line) => console.log(line));
  if (scene) {
    const { guarded, unguarded } = await playScene(stack, scene, timeline);
    console.log(`\nwith the guard:    ${guarded.said}${guarded.held ? "" : "  (NOT the seed's outcome)"}`);
    console.log(`without the guard: ${unguarded.said}`);
    const shown = guarded.held && !unguarded.held;
    code = shown ? 1 : 3;
    console.log(
      shown
        ? `verdict: branch ${branch} shows the seed's failure, ${scene.failure} (exit 1)`
        : `verdict: branch ${branch} did NOT show ${guarded.held ? scene.failure : `the guarded outcome: ${scene.outcome}`} (exit 3)`,
    );
  } else if (drill) {
    const result = await drill.run(stack, (line) => console.log(line));
    console.log(`\nfinal count:\n${formatCount(result.count)}\nthe seed's count: ${result.expected}`);
    code = result.matchesSeed ? 0 : 1;
    console.log(
      `verdict: ${result.matchesSeed ? "the seed's count (exit 0)" : "NOT the seed's count (exit 1)"}`,
    );
  } else {
    Object.assign(process.env, played?.env ?? {});
    const api = new DrillApi({ R1: stack.apiUrl, R2: stack.standbyUrl ?? stack.apiUrl });
    const count = await playMainLine(stack, await castOfTheStory(stack, api, timeline), timeline);
    console.log(`\nfinal count:\n${formatStoryCount(count)}`);
    console.log("the seed's count: one charge (ch_1), one credit to m1 (12,000 → 15,000), one notification");
    const shown = played?.shows(count);
    code = played ? (shown ? 1 : 3) : isSeedCount(count) ? 0 : 1;
    const verdict = played
      ? shown
        ? `verdict: branch ${branch} shows the seed's failure, ${played.failure} (exit 1)`
        : `verdict: branch ${branch} did NOT show ${played.failure} (exit 3)`
      : code === 0
        ? "verdict: the seed's count (exit 0)"
        : "verdict: NOT the seed's count (exit 1)";
    console.log(verdict);
    if (htmlFile) {
      const title = branch ? `The story, branch ${branch}` : "The story (Part 13)";
      writeFileSync(htmlFile, storyHtml(title, timeline.entries, count, verdict));
      console.log(`timeline page: ${htmlFile}`);
    }
  }
} catch (err) {
  console.error(`the story could not finish: ${(err as Error).message}`);
} finally {
  await stack.stop();
}
process.exit(code);
