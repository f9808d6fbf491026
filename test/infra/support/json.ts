/** Narrowing helpers over the JSON of a capture: a wrong shape reads as empty, so a check reports it. */
import type { Json, JsonObject } from "./capture";

/** The value as an object, or {} when it is not one. */
export const obj = (v: Json | undefined): JsonObject =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : {};
/** The value as an array, or [] when it is not one. */
export const arr = (v: Json | undefined): Json[] => (Array.isArray(v) ? v : []);
/** The value as a string, or undefined when it is not one. */
export const str = (v: Json | undefined): string | undefined => (typeof v === "string" ? v : undefined);
