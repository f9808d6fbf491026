import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { probeStatus } from "./http-probe";
import { type ManagedProcess, spawnService } from "./managed-process";

const here = dirname(fileURLToPath(import.meta.url));

/** Starts fauxqs (SQS + SNS) on 127.0.0.1:port. */
export function startFauxqs(port: number, region: string): Promise<ManagedProcess> {
  return spawnService({
    name: "fauxqs",
    command: process.execPath,
    args: [join(here, "fauxqs-entry.mjs"), String(port), region],
    ready: async () => inRange(await probeStatus(`http://127.0.0.1:${port}/health`), 200, 499),
    readyLine: "fauxqs ready",
  });
}

/** Starts aws-ses-v2-local (SES v2) on 127.0.0.1:port. */
export function startSesLocal(port: number): Promise<ManagedProcess> {
  return spawnService({
    name: "aws-ses-v2-local",
    command: process.execPath,
    args: [join(here, "ses-entry.mjs"), String(port)],
    ready: async () => inRange(await probeStatus(`http://127.0.0.1:${port}/health-check`), 200, 299),
    readyLine: "aws-ses-v2-local ready",
  });
}

const inRange = (status: number, low: number, high: number) => status >= low && status <= high;
