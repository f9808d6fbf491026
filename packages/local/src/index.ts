export * from "./emulators/managed-process";
export * from "./runtime/jwt";
export * from "./stack/regions";
export * from "./stack/start-emulators";
export * from "./stack/start-stack";
