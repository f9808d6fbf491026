// The standby Region's Lambda runtime: a worker thread with that Region's environment, running the same
// handler modules that Lambda runs. It loads TypeScript through tsx, as `npm start` does in the main thread.
import { register } from "tsx/esm/api";

register();
await import("./lambda-worker-main.ts");
