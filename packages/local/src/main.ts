import { renameSync, writeFileSync } from "node:fs";
import { pspDialectOf } from "@eo/core";
import { mintToken } from "./runtime/jwt";
import { externalPspOf } from "./stack/external-psp";
import { startBanner } from "./stack/start-banner";
import { startLocalStack } from "./stack/start-stack";

// `npm start`: the whole local stack on 127.0.0.1 until Ctrl-C, on the contract's default ports.
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

const started = Date.now();
// Read before the stack starts: the stack sets PSP_URL itself, for its handlers, once the PSP is chosen.
const external = (() => {
  try {
    return externalPspOf(process.env, pspDialectOf(process.env));
  } catch (err) {
    console.error(`effectively-once: could not start: ${(err as Error).message}`);
    process.exit(2);
  }
})();
console.log(
  `effectively-once: starting the local stack, two Regions (DynamoDB Local, fauxqs, SES, ${external ? `the real PSP at ${external.url}` : "fake PSP"}, handlers)...`,
);
const stack = await startLocalStack({
  ...(external ? { externalPsp: external } : {}),
  // The resolver runs each minute, as its cron does in AWS; a load test may ask for a shorter schedule.
  resolverEveryMs: process.env.RESOLVER_EVERY_MS ? port("RESOLVER_EVERY_MS", 60_000) : undefined,
  sweepsEveryMs: process.env.SWEEPS_EVERY_MS ? port("SWEEPS_EVERY_MS", 300_000) : undefined,
  // A fault checker's stack may run the primary alone (LOCAL_STANDBY=off): both Regions are the default.
  standby: process.env.LOCAL_STANDBY !== "off",
  ports: {
    api: port("API_PORT", 3000),
    standbyApi: port("STANDBY_API_PORT", 3100),
    psp: port("PSP_PORT", 3001),
    dynamodb: port("DYNAMODB_PORT", 8000),
    sqs: port("SQS_PORT", 9324),
    ses: port("SES_PORT", 8005),
  },
}).catch((err: Error) => {
  console.error(`effectively-once: could not start: ${err.message}`);
  process.exit(1);
});

const { endpoints } = stack.emulators;
// A parent that started this stack on ports of 0 (the load generator, chaos's parallel stacks) learns them here.
if (process.env.EO_READY_FILE) {
  const ready = {
    apiUrl: stack.apiUrl,
    standbyUrl: stack.standbyUrl,
    pspUrl: stack.psp.url,
    endpoints,
    pid: process.pid,
  };
  // Written whole, then renamed, so a reader never sees half of it.
  writeFileSync(`${process.env.EO_READY_FILE}.tmp`, JSON.stringify(ready));
  renameSync(`${process.env.EO_READY_FILE}.tmp`, process.env.EO_READY_FILE);
}
console.log(
  startBanner(stack, (Date.now() - started) / 1000, await mintToken("u1", { email: "u1@example.com" })),
);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the local stack...`);
  await stack.stop();
  console.log("stopped; no emulator left running.");
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
