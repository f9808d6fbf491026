export * from "./stack/start-stack";
export * from "./stack/start-emulators";
export * from "./stack/regions";
export * from "./runtime/jwt";
export * from "./emulators/managed-process";
