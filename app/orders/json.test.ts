import { afterEach, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../test/support/test-env";
import { idString } from "./ids";
import { parseWebhookJson } from "./json";

describe("parseWebhookJson", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("keeps a 19-digit ID exact where JSON.parse rounds it", () => {
    const raw = '{"id": 6709529444685123457, "line_items": [{"id": 1673526385082912345}]}';
    expect(parseWebhookJson(raw)).toEqual({
      id: "6709529444685123457",
      line_items: [{ id: "1673526385082912345" }],
    });
    const plain = JSON.parse(raw) as { id: number };
    expect(String(plain.id)).not.toBe("6709529444685123457");
  });

  it("keeps the 19-digit IDs of the widened fixture copy", () => {
    const raw = readFileSync(
      path.join(repoRoot, "test/fixtures/orders/orders-create-19-digit-ids.json"),
      "utf8",
    );
    const order = parseWebhookJson(raw) as { id: unknown; line_items: { variant_id: unknown }[] };
    expect(order.id).toBe("6709529444685123457");
    expect(order.line_items[0]?.variant_id).toBe("5173452324897312347");
  });

  it("leaves safe integers, decimals and other values as JSON.parse gives them", () => {
    const raw =
      '{"a": 9007199254740991, "b": -12, "c": 19.99, "d": 1e300, "e": "820982911946154508", "f": null, "g": [true]}';
    expect(parseWebhookJson(raw)).toEqual(JSON.parse(raw));
  });

  it("returns negative unsafe integers as their digits too", () => {
    expect(parseWebhookJson("[-9007199254740993]")).toEqual(["-9007199254740993"]);
  });

  it("throws a SyntaxError for invalid JSON", () => {
    expect(() => parseWebhookJson("{not json")).toThrow(SyntaxError);
  });

  it("says that it needs Node 22 when JSON.parse gives its reviver no source", () => {
    const realParse = JSON.parse;
    vi.spyOn(JSON, "parse").mockImplementation((text: string, reviver) =>
      realParse(text, reviver && ((key: string, value: unknown) => reviver.call({}, key, value))),
    );
    expect(() => parseWebhookJson('{"id": 1}')).toThrow(
      "parseWebhookJson: lossless JSON parsing needs Node 22 or later",
    );
  });
});

describe("idString", () => {
  it.each([
    [6709529444685, "6709529444685"],
    [0, "0"],
    ["6709529444685123457", "6709529444685123457"],
    ["gid://shopify/Order/1", "gid://shopify/Order/1"],
    // A number past 2^53 is stringified as it is: its lost digits cannot be repaired here.
    [Number("820982911946154508"), "820982911946154500"],
  ])("%j is %j", (value, expected) => {
    expect(idString(value)).toBe(expected);
  });

  it.each([null, undefined, "", 1.5, -1, Number.NaN, 1e21, true, {}, []])("%j is null", (value) => {
    expect(idString(value)).toBeNull();
  });
});
