import type { ScheduledJob } from "../pollers/scheduler";
import type { Route } from "../runtime/http-front";
import type { LocalRouteSources } from "./local-routes";
import type { Emulators } from "./start-emulators";

/** What the stack hands the asynchronous half (relay, worker, push, email) when it starts it. */
export interface AsyncHalfInput {
  emulators: Emulators;
  apiUrl: string;
  /** Sets handler environment variables; must be called before any poller invokes a handler. */
  applyEnv: (env: Record<string, string>) => void;
  sweepsEveryMs: number;
}

/** The running asynchronous half. */
export interface AsyncHalf {
  routes: Route[];
  localRoutes: NonNullable<LocalRouteSources["extra"]>;
  jobs: Record<string, ScheduledJob>;
  healthy(): Record<string, boolean>;
  stop(): Promise<void>;
}

/** Placeholder until the relay and worker land: the stack runs the synchronous half alone. */
export async function startAsyncHalf(_input: AsyncHalfInput): Promise<AsyncHalf> {
  return { routes: [], localRoutes: [], jobs: {}, healthy: () => ({}), stop: async () => undefined };
}
