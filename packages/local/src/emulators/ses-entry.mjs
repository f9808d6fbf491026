// Runs aws-ses-v2-local on 127.0.0.1 only (its default host is every interface). Exits when stdin closes.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const start = require("aws-ses-v2-local").default;
const port = Number(process.argv[2]);
await start({ host: "127.0.0.1", port });
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
console.log(`aws-ses-v2-local ready on 127.0.0.1:${port}`);
