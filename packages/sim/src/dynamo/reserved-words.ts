import { validation } from "./errors";

/**
 * Words DynamoDB refuses as bare attribute names in expressions. A subset of the published list (ReservedWords in
 * the developer guide), chosen as the words an attribute is likely to be called, each checked against DynamoDB Local;
 * a name outside it that DynamoDB reserves would pass here and fail on AWS.
 */
const RESERVED = new Set(
  (
    "ABORT ACTION ADD AFTER ALL AND ANY AS ASC AT ATTRIBUTE AUTO BATCH BEGIN BETWEEN BINARY BOOLEAN BY BYTE CASE " +
    "CHECK CLUSTER COLUMN COMMENT COMMIT CONDITION COUNT COUNTER CREATE CURRENT CURSOR DATA DATABASE DATE DAY " +
    "DEFAULT DELETE DESC DOMAIN DROP EACH ELEMENT ELSE END ERROR EXISTS FALSE FILE FILTER FIRST FLOAT FOR FROM " +
    "FUNCTION GROUP HASH HOUR IF IN INDEX INSERT INTERVAL INTO IS ITEM ITEMS KEY KEYS LAST LEVEL LIMIT LIST " +
    "LOCAL LOCATION LOCK MAP MATCH MAX MEMBER MIN MINUTE MODE MONTH NAME NAMES NEW NEXT NO NOT NULL NUMBER " +
    "OBJECT OF OFFSET OLD ON ONLY OPTION OR ORDER OWNER PARTITION PATH PERCENT PLAN POSITION PRIMARY PRIVATE " +
    "PUBLIC RANGE RAW READ REFERENCE REGION REMOVE REPLACE RESULT RETURN ROLE ROW ROWS SECOND SECTION SELECT " +
    "SESSION SET SOURCE START STATE STATUS STORAGE STRING SUM SYSTEM TABLE TEMPORARY THEN TIME TIMESTAMP " +
    "TO TOTAL TRANSACTION TRUE TTL TYPE UNDO UNION UNIQUE UPDATE USER USING UUID VALUE VALUES VARCHAR VIEW " +
    "WHEN WHERE WITH WORK WRITE YEAR ZONE"
  ).split(" "),
);

/** Refuses a bare name that DynamoDB reserves, with its message. */
export function checkNotReserved(name: string, label: string): void {
  if (RESERVED.has(name.toUpperCase())) {
    throw validation(`Invalid ${label}: Attribute name is a reserved keyword; reserved keyword: ${name}`);
  }
}
