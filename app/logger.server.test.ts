import { describe, expect, it } from "vitest";
import { createLogger, logFormatFor } from "./logger.server";

function collected(env: Record<string, string | undefined>, isTTY: boolean) {
  const lines: string[] = [];
  const logger = createLogger({
    env: { LOG_LEVEL: "info", ...env },
    isTTY,
    destination: { write: (line: string) => lines.push(line) },
  });
  logger.info({ shop: "a.myshopify.com", secretKey: "sk_test_secret" }, "Connected the shop");
  return lines.join("");
}

describe("the log format", () => {
  it("is pretty for a terminal outside CI and production, JSON otherwise", () => {
    expect(logFormatFor({ NODE_ENV: "development" }, true)).toBe("pretty");
    expect(logFormatFor({}, true)).toBe("pretty");
    expect(logFormatFor({ NODE_ENV: "development" }, false)).toBe("json");
    expect(logFormatFor({ CI: "true" }, true)).toBe("json");
    expect(logFormatFor({ CI: "1" }, true)).toBe("json");
    expect(logFormatFor({ CI: "false" }, true)).toBe("pretty");
    expect(logFormatFor({ NODE_ENV: "production" }, true)).toBe("json");
  });

  it("is JSON in production, whatever LOG_FORMAT says, with a warning that says why", () => {
    expect(logFormatFor({ NODE_ENV: "production", LOG_FORMAT: "pretty" }, true)).toBe("json");
    const lines = collected({ NODE_ENV: "production", LOG_FORMAT: "pretty" }, true)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: 40, msg: "LOG_FORMAT=pretty is for development: production writes JSON lines" },
      { level: 30, msg: "Connected the shop" },
    ]);
    expect(collected({ NODE_ENV: "production", LOG_FORMAT: "json" }, true)).not.toContain(
      "LOG_FORMAT",
    );
  });

  it("is what LOG_FORMAT says when it says json or pretty", () => {
    expect(logFormatFor({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormatFor({ LOG_FORMAT: "Pretty", CI: "true" }, false)).toBe("pretty");
    expect(logFormatFor({ LOG_FORMAT: "fancy" }, false)).toBe("json");
  });

  it("writes readable lines to a terminal, without colour when NO_COLOR is set", () => {
    const text = collected({ NO_COLOR: "1" }, true);
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Connected the shop/);
    expect(text).toContain('{"shop":"a.myshopify.com","secretKey":"[redacted]"}');
    expect(text).not.toContain("sk_test_secret");
    expect(text).not.toContain("\u001b[");
  });

  it("colours a terminal's lines", () => {
    expect(collected({}, true)).toContain("\u001b[");
  });

  it("writes one JSON object per line when piped or in CI", () => {
    for (const text of [collected({}, false), collected({ CI: "true" }, true)]) {
      const line = JSON.parse(text) as Record<string, unknown>;
      expect(line).toMatchObject({
        level: 30,
        msg: "Connected the shop",
        shop: "a.myshopify.com",
        service: "svc-protection",
        secretKey: "[redacted]",
      });
    }
  });
});

describe("redaction", () => {
  it("redacts Shopify's access and refresh tokens, in either spelling and in a session", () => {
    const lines: string[] = [];
    const logger = createLogger({
      env: { LOG_LEVEL: "info" },
      isTTY: false,
      destination: { write: (line: string) => lines.push(line) },
    });
    logger.info(
      {
        shop: "a.myshopify.com",
        refreshToken: "shprt_top_level_1111",
        access_token: "shpat_wire_2222",
        refresh_token: "shprt_wire_3333",
        session: { accessToken: "shpat_session_4444", refreshToken: "shprt_session_5555" },
        answer: { access_token: "shpat_answer_6666", refresh_token: "shprt_answer_7777" },
        headers: { "x-shopify-access-token": "shpat_header_8888" },
      },
      "Refreshed the offline token",
    );
    const text = lines.join("");
    expect(text).not.toMatch(/shp(at|rt)_/);
    expect(JSON.parse(text)).toMatchObject({
      shop: "a.myshopify.com",
      refreshToken: "[redacted]",
      session: { accessToken: "[redacted]", refreshToken: "[redacted]" },
    });
  });
});
