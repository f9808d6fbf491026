// The failover's core: its plan, its sides and its steps. It lives beside the region control it moves (core's
// region concept), so that `npm run failover` (scripts/) and the local drills (packages/local) both import it
// downwards; what only the command does (arguments, finding the target, the verdict line) stays in scripts/.
// Reached as `@eo/core/failover`, not through core's index, so the handlers' bundles never carry the operator's
// Lambda and CloudWatch clients.
export { type AwsRegionNames, type AwsStage, awsSides } from "./aws-sides";
export { dynamoSide, type RegionOps, type RegionTables } from "./dynamo-side";
export { judgeCharge, type VerifiedRow } from "./judge-charge";
export { type Observed, observe } from "./observe";
export type { Numbers } from "./pre-checks";
export { Progress, type StepResult } from "./progress";
export type { AuthoritySide, FailoverSides, RegionSide } from "./region-side";
export { type ResumeSettings, resume, type Verified, verify } from "./resume-and-verify";
export {
  type FailoverCode,
  type FailoverOutcome,
  type FailoverRequest,
  runFailover,
} from "./run-failover";
export { type DrainSettings, forcedSwitch, plannedSwitch } from "./switch-over";
