import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

function startCli(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "store/main.ts"], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe("npm run store (store/main.ts)", () => {
  it("prints its origin, serves the control API, and exits cleanly on SIGTERM", async () => {
    const { child, output } = startCli({ SVC_STORE_PORT: "0" });
    try {
      await expect.poll(output, { timeout: 15_000 }).toContain("control API:");
      const origin = /origin: +(http:\/\/127\.0\.0\.1:\d+) /.exec(output())?.[1];
      expect(origin).toBeDefined();

      const created = await fetch(`${origin}/__store/shops`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          shop: "cli-check.myshopify.com",
          app_url: "http://127.0.0.1:3000",
          api_key: "key",
          api_secret: "secret",
        }),
      });
      expect(created.status).toBe(201);

      child.kill("SIGTERM");
      const [exitCode] = await once(child, "exit");
      expect(exitCode).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("refuses a malformed retry schedule", async () => {
    const { child, output } = startCli({
      SVC_STORE_PORT: "0",
      SVC_STORE_WEBHOOK_RETRY_DELAYS_MS: "100,soon",
    });
    const [exitCode] = await once(child, "exit");
    expect(exitCode).toBe(1);
    expect(output()).toContain(
      'Failed to start the store: SVC_STORE_WEBHOOK_RETRY_DELAYS_MS must be up to 8 comma-separated whole numbers of milliseconds, got "100,soon"',
    );
  });
});
