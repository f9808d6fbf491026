import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";

const PACKAGE = "@sparticuz/chromium";

/** Where the package is installed, or undefined when `npm ci` did not bring it. */
function packageDir(): string | undefined {
  try {
    // The package exports no ./package.json; its entry is build/cjs/index.cjs, two levels below its root.
    return join(dirname(createRequire(import.meta.url).resolve(PACKAGE)), "../..");
  } catch {
    return undefined;
  }
}

/**
 * Answers the path of the Chromium shipped brotli-compressed inside `@sparticuz/chromium`, inflated once into
 * node_modules/.cache, or a reason why there is none here.
 */
export async function bundledChromium(): Promise<{ path?: string; reason?: string }> {
  // The npm package carries the x86_64 Linux build only.
  if (process.platform !== "linux" || process.arch !== "x64")
    return { reason: `${PACKAGE} ships Linux x86_64 only (this is ${process.platform} ${process.arch})` };
  const dir = packageDir();
  const packed = dir && join(dir, "bin", "chromium.br");
  if (!dir || !packed || !existsSync(packed)) return { reason: `${PACKAGE} is not installed (run npm ci)` };
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string };
  // Versioned, beside the install: an upgrade inflates anew, `npm ci` clears it, /tmp holds no 200 MB copy.
  const path = join(dir, "../../.cache/effectively-once", `chromium-${version}`, "chromium");
  try {
    if (!existsSync(path)) await inflate(packed, path);
  } catch (err) {
    return { reason: `could not inflate ${packed} into ${dirname(path)}: ${(err as Error).message}` };
  }
  return { path };
}

/** Decompresses into a private file and renames it into place, so a parallel run never starts a half-written binary. */
async function inflate(packed: string, path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const part = `${path}.${process.pid}.part`;
  try {
    await pipeline(
      createReadStream(packed),
      createBrotliDecompress(),
      createWriteStream(part, { mode: 0o755 }),
    );
    renameSync(part, path);
  } finally {
    rmSync(part, { force: true });
  }
}
