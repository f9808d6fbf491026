import { UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import { describe, expect, it } from "vitest";
import {
  addDecimal,
  canonicalNumber,
  compareDecimal,
  formatDecimal,
  parseDecimal,
} from "../../src/dynamo/decimal";
import { rejection, world } from "./fixtures";

describe("exact decimals", () => {
  it("stores numbers in DynamoDB's canonical text", () => {
    expect(canonicalNumber("1.50")).toBe("1.5");
    expect(canonicalNumber("-0.000120")).toBe("-0.00012");
    expect(canonicalNumber("1e20")).toBe("100000000000000000000");
    expect(canonicalNumber("-0")).toBe("0");
  });

  it("adds beyond a float's precision exactly", () => {
    const sum = addDecimal(parseDecimal("9999999999999999"), parseDecimal("0.0000000000000001"));
    expect(formatDecimal(sum)).toBe("9999999999999999.0000000000000001");
  });

  it("compares by value, not by text", () => {
    expect(compareDecimal(parseDecimal("10"), parseDecimal("9.99"))).toBe(1);
    expect(compareDecimal(parseDecimal("1e2"), parseDecimal("100.0"))).toBe(0);
  });

  it("refuses more than 38 significant digits and magnitudes out of range", () => {
    expect(() => parseDecimal("123456789012345678901234567890123456789")).toThrow(
      "DynamoDB only supports precision up to 38 digits",
    );
    expect(() => parseDecimal("1e126")).toThrow("Number overflow");
    expect(() => parseDecimal("1e-131")).toThrow("Number underflow");
  });

  it("adds 38-digit numbers through an update expression without losing a digit", async () => {
    const { ddb } = await world();
    const out = await ddb.send(
      new UpdateItemCommand({
        TableName: "claims",
        Key: { id: { S: "a" } },
        UpdateExpression: "SET n = :big ADD m :one",
        ExpressionAttributeValues: {
          ":big": { N: "12345678901234567890123456789012345678" },
          ":one": { N: "0.1" },
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    const again = await ddb.send(
      new UpdateItemCommand({
        TableName: "claims",
        Key: { id: { S: "a" } },
        UpdateExpression: "SET n = n + :one",
        ExpressionAttributeValues: { ":one": { N: "1" } },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    expect(out.Attributes?.m).toEqual({ N: "0.1" });
    expect(again.Attributes?.n).toEqual({ N: "12345678901234567890123456789012345679" });
    const err = await rejection(
      ddb.send(
        new UpdateItemCommand({
          TableName: "claims",
          Key: { id: { S: "a" } },
          UpdateExpression: "SET n = n + :tiny",
          ExpressionAttributeValues: { ":tiny": { N: "0.1" } },
        }),
      ),
    );
    expect(err.message).toBe("DynamoDB only supports precision up to 38 digits");
  });
});
