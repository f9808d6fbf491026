import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensurePlatform, INSTALL_TIMEOUT_MS, ROOT } from "./support/platform";

describe("SST app type-check", () => {
  beforeAll(ensurePlatform, INSTALL_TIMEOUT_MS);

  it("sst.config.ts and stacks/ type-check against SST's platform types", async () => {
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    const result = await promisify(execFile)(
      process.execPath,
      [tsc, "-p", "stacks/tsconfig.json", "--pretty", "false"],
      {
        cwd: ROOT,
        maxBuffer: 16 * 1024 * 1024,
      },
    ).then(
      () => ({ code: 0, output: "" }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }),
    );
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  }, 180_000);
});
