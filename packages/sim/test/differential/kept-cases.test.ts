import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type KeptCase, loadKeptCases, replayKeptCase } from "../../src/differential/kept-case";
import { modelTarget } from "../../src/differential/model-target";

const KEPT = join(fileURLToPath(new URL(".", import.meta.url)), "kept-cases");
const cases = loadKeptCases(KEPT);

describe("kept differential cases", () => {
  it("holds, for every op of every case, the answer DynamoDB Local gave", () => {
    // prepare / act: the files as the replay reads them
    const shapes = cases.map(({ file, kept }) => ({ file, ...shapeOf(kept) }));

    // assess: a case without its recorded answers could never fail its replay
    for (const s of shapes)
      expect({ replies: s.replies, hasTables: s.hasTables }, s.file).toEqual({
        replies: s.ops,
        hasTables: true,
      });
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)("$file: the model answers what DynamoDB Local answered", async ({ kept }) => {
    // prepare / act: the ops on a fresh model
    const disagreement = await replayKeptCase(modelTarget(), kept);

    // assess
    expect(disagreement, kept.title).toBeUndefined();
  });
});

function shapeOf(kept: KeptCase): { ops: number; replies: number; hasTables: boolean } {
  return {
    ops: kept.ops.length,
    replies: kept.dynamoLocal.replies.length,
    hasTables: ["ledger", "totals", "claims"].every((t) => Array.isArray(kept.dynamoLocal.tables[t])),
  };
}
