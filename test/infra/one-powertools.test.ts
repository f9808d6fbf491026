import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

type Lock = { packages: Record<string, { version?: string }> };

/** Every Powertools package the lockfile installs, anywhere in the tree, by version. */
function powertoolsVersions(lock: Lock): Map<string, string[]> {
  const byVersion = new Map<string, string[]>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const name = /node_modules\/(@aws-lambda-powertools\/[^/]+)$/.exec(path)?.[1];
    if (!name || !entry.version) continue;
    byVersion.set(entry.version, [...(byVersion.get(entry.version) ?? []), path]);
  }
  return byVersion;
}

// Issue 41, item 5: two Powertools versions put two copies of its commons (and two metric buffers) in every bundle.
describe("one Powertools version", () => {
  it("is all the lockfile installs: one copy of its commons in every bundle", () => {
    // act
    const versions = powertoolsVersions(JSON.parse(readFileSync("package-lock.json", "utf8")) as Lock);
    // assess
    expect([...versions.keys()], JSON.stringify(Object.fromEntries(versions), null, 1)).toHaveLength(1);
  });

  it("objects to a lockfile with a logger ahead of the rest (broken on purpose)", () => {
    // prepare
    const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as Lock;
    lock.packages["node_modules/@aws-lambda-powertools/logger/node_modules/@aws-lambda-powertools/commons"] =
      {
        version: "9.9.9",
      };
    // act
    const versions = powertoolsVersions(lock);
    // assess
    expect(versions.size).toBe(2);
  });
});
