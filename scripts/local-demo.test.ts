import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wantsColour } from "../app/lib/terminal";
import { devOutput } from "./dev-output";
import { APP_HANDLE, demoLinks, demoModeOf } from "./local-demo";

describe("SVC_LOCAL_DEMO", () => {
  it("sets the shop up by default, skips it with off, and adds the order with lifecycle", () => {
    expect(demoModeOf(undefined)).toBe("setup");
    expect(demoModeOf("")).toBe("setup");
    expect(demoModeOf("on")).toBe("setup");
    expect(demoModeOf("off")).toBe("off");
    expect(demoModeOf(" OFF ")).toBe("off");
    expect(demoModeOf("lifecycle")).toBe("lifecycle");
  });

  it("refuses anything else, naming the variable", () => {
    expect(() => demoModeOf("no")).toThrow(/SVC_LOCAL_DEMO must be off, setup or lifecycle/);
  });
});

describe("the demo's links", () => {
  it("open the embedded admin at shopify.app.toml's handle", () => {
    const toml = readFileSync(new URL("../shopify.app.toml", import.meta.url), "utf8");
    expect(/^handle = "([^"]+)"$/m.exec(toml)?.[1]).toBe(APP_HANDLE);
    expect(demoLinks("http://127.0.0.1:4020", "noise-cancelling-headphones")).toEqual({
      productPage: "http://127.0.0.1:4020/products/noise-cancelling-headphones",
      cart: "http://127.0.0.1:4020/cart",
      admin: `http://127.0.0.1:4020/admin/apps/${APP_HANDLE}`,
    });
  });

  it("are printed in one framed block, coloured only for a terminal", () => {
    const links = demoLinks("http://127.0.0.1:4020", "headphones");
    const writes: string[] = [];
    devOutput(false, (text) => writes.push(text)).links(links, ["Ctrl-C stops everything."]);
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split("\n");
    expect(lines).toContain("│ Product page  http://127.0.0.1:4020/products/headphones");
    expect(lines).toContain("│ Cart          http://127.0.0.1:4020/cart");
    expect(lines).toContain("│ Admin         http://127.0.0.1:4020/admin/apps/svc-protection");
    expect(lines.find((line) => line.startsWith("┌─ svc-protection is running"))).toBeDefined();
    expect(lines.find((line) => line.startsWith("└─"))).toBeDefined();
    expect(writes[0]).not.toContain("\u001b[");

    const coloured: string[] = [];
    devOutput(true, (text) => coloured.push(text)).line("installed the app");
    expect(coloured).toEqual(["\u001b[1;35mdemo  ▸\u001b[0m installed the app\n"]);
    expect(wantsColour({}, true)).toBe(true);
    expect(wantsColour({}, false)).toBe(false);
    expect(wantsColour({ NO_COLOR: "1" }, true)).toBe(false);
  });
});
