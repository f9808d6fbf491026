// Runs fauxqs (SQS and SNS) on 127.0.0.1 only; its CLI binds every interface. Exits when stdin closes.
import { buildApp } from "fauxqs";

const port = Number(process.argv[2]);
const region = process.argv[3] ?? "us-east-1";
const app = buildApp({ logger: false, host: "localhost", defaultRegion: region });
await app.listen({ port, host: "127.0.0.1" });
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
console.log(`fauxqs ready on 127.0.0.1:${port}`);
