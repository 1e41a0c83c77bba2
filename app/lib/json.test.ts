import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot, shopifyFixturesDir } from "../../test/support/test-env";
import { idString } from "./shopify-id";
import { parseWebhookJson } from "./json";

describe("parseWebhookJson", () => {
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

  it("keeps invalid JSON invalid, a long integer used as a key included", () => {
    for (const raw of ["{12345678901234567890: 1}", '["a" 12345678901234567890]', "[1.]"]) {
      expect(() => parseWebhookJson(raw)).toThrow(SyntaxError);
    }
  });

  it("leaves digits inside strings, fractions and exponents alone", () => {
    const raw =
      '{"s": "id 12345678901234567890 \\" 98765432109876543210", "f": 0.12345678901234567890, "e": 1e12345678901234567, "g": 12345678901234567890.5}';
    expect(parseWebhookJson(raw)).toEqual(JSON.parse(raw));
  });

  it("gives what a reviver reading context.source gives, on every fixture", () => {
    // A set: the Shopify samples sit under test/fixtures unless SHOPIFY_FIXTURES_DIR moves them.
    const files = new Set([
      ...jsonFilesUnder(shopifyFixturesDir),
      ...jsonFilesUnder(path.join(repoRoot, "test/fixtures")),
    ]);
    expect(files.size).toBeGreaterThan(30);
    for (const file of files) {
      const raw = readFileSync(file, "utf8");
      expect(parseWebhookJson(raw), file).toEqual(parseWithSourceReviver(raw));
    }
  });

  it("gives what a reviver reading context.source gives, on generated documents", () => {
    const random = seededRandom(20261122);
    for (let round = 0; round < 500; round += 1) {
      const raw = JSON.stringify(randomValue(random, 0), null, round % 2 ? 1 : undefined)
        // JSON.stringify cannot write an unsafe integer exactly: splice some in as raw digits.
        .replace(/"@int(-?\d+)"/g, "$1");
      expect(parseWebhookJson(raw), raw).toEqual(parseWithSourceReviver(raw));
    }
  });
});

/** The reference: JSON.parse with a reviver that returns the source text of unsafe integers. */
function parseWithSourceReviver(raw: string): unknown {
  return JSON.parse(raw, function (
    this: unknown,
    _key,
    value: unknown,
    context?: { source?: string },
  ) {
    if (context === undefined) throw new Error("This test needs Node 22 (reviver context)");
    if (
      typeof value === "number" &&
      !Number.isSafeInteger(value) &&
      /^-?\d+$/.test(context.source ?? "")
    ) {
      return context.source;
    }
    return value;
  } as (key: string, value: unknown) => unknown);
}

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".json"))
    .map((name) => path.resolve(dir, name));
}

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function randomValue(random: () => number, depth: number): unknown {
  const digits = (count: number) =>
    Array.from(
      { length: count },
      (_, index) => Math.floor(random() * (index ? 10 : 9)) + (index ? 0 : 1),
    ).join("");
  const pick = Math.floor(random() * (depth > 3 ? 6 : 8));
  switch (pick) {
    case 0:
      return `@int${random() < 0.3 ? "-" : ""}${digits(14 + Math.floor(random() * 8))}`;
    case 1:
      return Number(
        `${digits(1 + Math.floor(random() * 6))}.${digits(1 + Math.floor(random() * 20))}`,
      );
    case 2:
      return `text ${digits(17)} "quoted" \\ ${digits(3)}`;
    case 3:
      return random() < 0.5 ? null : random() < 0.5;
    case 4:
      return Number(`${digits(1)}e${Math.floor(random() * 40)}`);
    case 5:
      return Math.floor(random() * 1_000_000);
    case 6:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, index) => [
          `${digits(16)}key${index}`,
          randomValue(random, depth + 1),
        ]),
      );
  }
}

describe("parseWebhookJson on hostile and generated text (fast-check)", () => {
  it("answers 250 KB of unclosed quoted quotes at once (issue 13: it blocked the process 39 s)", () => {
    for (const raw of ['"' + '\\"'.repeat(125_000), '{"a": "' + "\\".repeat(250_000)]) {
      const started = performance.now();
      expect(() => parseWebhookJson(raw)).toThrow(SyntaxError);
      expect(performance.now() - started).toBeLessThan(100);
    }
  });

  it("gives what a reviver reading context.source gives, on any document", () => {
    fc.assert(
      fc.property(jsonText(), (raw) => {
        expect(parseWebhookJson(raw)).toEqual(parseWithSourceReviver(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it("throws a SyntaxError exactly where JSON.parse does, on any text near JSON", () => {
    const nearJson = fc.oneof(
      fc.stringOf(fc.constantFrom(...'"\\0129-+.eE:,[]{} \ntrunlfa'.split("")), { maxLength: 80 }),
      fc
        .tuple(jsonText(), fc.nat(), fc.constantFrom("", '"', "\\", ":", "0", "-", "]", "}", ","))
        .map(([raw, at, insert]) => {
          const cut = at % (raw.length + 1);
          return raw.slice(0, cut) + insert + raw.slice(cut + (insert === "" ? 1 : 0));
        }),
    );
    fc.assert(
      fc.property(nearJson, (raw) => {
        let expected: unknown;
        let invalid = false;
        try {
          expected = parseWithSourceReviver(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          invalid = true;
        }
        if (invalid) expect(() => parseWebhookJson(raw), raw).toThrow(SyntaxError);
        else expect(parseWebhookJson(raw), raw).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });
});

/** JSON text with integers of any size (written as digits, as Shopify does), any strings. */
function jsonText(): fc.Arbitrary<string> {
  const space = fc.constantFrom("", " ", "\n  ", "\t");
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((number) => JSON.stringify(number)),
      fc.string({ unit: "binary" }).map((text) => JSON.stringify(text)),
      fc.bigInt({ min: 0n, max: 10n ** 22n }).map((digits) => JSON.stringify(`x ${digits}`)),
      fc.constantFrom("true", "false", "null"),
      fc
        .array(fc.tuple(space, tie("value"), space), { maxLength: 5 })
        .map((items) => `[${items.map((item) => item.join("")).join(",")}]`),
      fc
        .array(fc.tuple(fc.string(), space, tie("value")), { maxLength: 5 })
        .map(
          (entries) =>
            `{${entries.map(([key, gap, item]) => `${JSON.stringify(key)}${gap}:${gap}${item}`).join(",")}}`,
        ),
    ),
  }));
  return value;
}

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
