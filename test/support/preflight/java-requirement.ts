import { spawnSync } from "node:child_process";

/** What the tests need Java for, and what to install; part of the preflight's message. */
export const JAVA_NEEDS = [
  "Java 17 or later with its compiler module jdk.compiler (a JDK, not a JRE).",
  "  why: DynamoDB Local runs on Java, and its loopback launcher (packages/local/java/LoopbackDynamoDb.java)",
  "       runs as a single-file source program, which the JDK's compiler module compiles at start.",
  "  install: apt-get install openjdk-17-jdk-headless (Debian 12, Ubuntu 22.04 and later);",
  "           on Debian 13: openjdk-21-jdk-headless; any JDK 17+ works (Temurin, Corretto, Zulu).",
  "           A JRE alone (openjdk-17-jre-headless) is not enough.",
].join("\n");

/**
 * Checks the `java` on the environment's PATH with one `java --list-modules`: java.base tells its version,
 * jdk.compiler that it is a JDK. Answers what is wrong, or undefined when it fits.
 */
export function javaProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const r = spawnSync("java", ["--list-modules"], { env, encoding: "utf8", timeout: 20_000 });
  if (r.error) return "no `java` on PATH";
  // Java 8 and older do not know --list-modules (there are no modules before 9).
  const base = /^java\.base@(\d+)/m.exec(r.stdout);
  if (r.status !== 0 || !base) return `\`java\` is older than 9: ${firstLine(`${r.stderr}${r.stdout}`)}`;
  const major = Number(base[1]);
  if (major < 17) return `\`java\` is Java ${major}`;
  if (!/^jdk\.compiler@/m.test(r.stdout)) return `\`java\` is Java ${major} without jdk.compiler (a JRE)`;
  return undefined;
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}
