/**
 * One process of `npm run sim`: plays the indexes `first, first + step, …` of a seed, each in a world of its own,
 * and reports each as one JSON line on stdout (the parent prints progress). Started by scripts/sim.ts only.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { switchesOf } from "../chaos/chaos-settings";
import { playInWorld, useChaosEnv, warmUp } from "./play-in-world";
import { kindAt, kindName, simSettings } from "./sim-settings";

/** One schedule's outcome, as the worker reports it to the parent. */
export interface WorkerLine {
  index: number;
  /** The kind's name (one-Region, two-Region classic, two-Region real-world). */
  kind: string;
  checks: string[];
  faultsFired: Record<string, number>;
  historyHash: string;
  realMs: number;
  virtualMs: number;
  file?: string;
}

const realNow = Date.now;

/**
 * The system's own complaints (a poller's failed batch, a throttled shard read) go to a ring of the last lines, not
 * to stderr: the nemesis provokes thousands a minute (megabytes a worker), a replay of the seed shows them all, and a
 * worker that fails prints the ring. SIM_LOG=1 lets them through.
 */
const tail: unknown[][] = [];
const TAIL_LINES = 200;
if (process.env.SIM_LOG !== "1") {
  // kept as given, formatted only if printed
  const keep = (...args: unknown[]) => {
    tail.push(args);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  console.error = keep;
  console.warn = keep;
  console.log = keep;
  console.info = keep;
}
const printTail = () => {
  if (tail.length > 0)
    process.stderr.write(
      `the worker's last ${tail.length} log line(s):\n${tail.map((args) => args.map(text).join(" ")).join("\n")}\n`,
    );
};

const text = (a: unknown): string => (a instanceof Error ? (a.stack ?? a.message) : String(a));

async function main(): Promise<void> {
  const [first, step, untilMs, ...rest] = process.argv.slice(2);
  const s = simSettings(rest);
  const { env, client } = switchesOf(s.unsafe);
  useChaosEnv(env);
  await warmUp(kindAt(s, Number(first)).regions);
  for (let index = Number(first); index < s.runs && realNow() < Number(untilMs); index += Number(step)) {
    const t0 = realNow();
    const kind = kindAt(s, index);
    const { record, historyHash, virtualMs } = await playInWorld(
      { seed: s.seed, index, ...kind },
      undefined,
      client,
    );
    const line: WorkerLine = {
      index,
      kind: kindName(kind),
      checks: [...new Set(record.violations.map((v) => v.check))],
      faultsFired: record.faultsFired,
      historyHash,
      realMs: realNow() - t0,
      virtualMs,
    };
    if (record.violations.length > 0) {
      mkdirSync(s.outDir, { recursive: true });
      line.file = join(s.outDir, `violation-${s.seed}-${index}.json`);
      writeFileSync(line.file, `${JSON.stringify({ ...record, historyHash }, null, 2)}\n`);
    }
    process.stdout.write(`${JSON.stringify(line)}\n`);
    if (line.file && !s.keepGoing) break;
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    printTail();
    process.stderr.write(`${text(err)}\n`);
    process.exit(1);
  },
);
