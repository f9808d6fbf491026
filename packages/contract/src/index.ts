export * from "./check";
export * from "./devices";
export * from "./fields";
export * from "./payments";
export * from "./problem";
export * from "./routes";
export * from "./webhook";
