import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** SST's platform (component sources, config.d.ts, @pulumi/*), installed offline by scripts/sst/ensure-platform.sh. */
export const PLATFORM_DIR = join(ROOT, ".sst/platform");
/** Caches and build outputs of the offline checks (gitignored with the rest of .sst/). */
export const CHECKS_DIR = join(ROOT, ".sst/offline-checks");
/** How long a cold `sst install` may take (npm downloads ~300 MB into .sst/platform). */
export const INSTALL_TIMEOUT_MS = 240_000;

/** Installs SST's platform into .sst/platform if it is missing (returns at once when present). */
export async function ensurePlatform(): Promise<void> {
  await promisify(execFile)("bash", [join(ROOT, "scripts/sst/ensure-platform.sh")], {
    cwd: ROOT,
    timeout: INSTALL_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
}
