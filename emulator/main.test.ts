import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));

describe("npm run emulator (emulator/main.ts)", () => {
  it("prints both addresses and keys, serves both environments, and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "emulator/main.ts"], {
      cwd: projectRoot,
      env: {
        ...process.env,
        SVC_EMULATOR_PORT: "0",
        SVC_EMULATOR_SANDBOX_KEY: "sk_test_cli_check",
        SVC_EMULATOR_LIVE_KEY: "sk_live_cli_check",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 15_000 }).toContain("sandbox:");
      const production =
        /production: (http:\/\/127\.0\.0\.1:\d+\/) +\(key sk_live_cli_check\)/.exec(output)?.[1];
      expect(production).toBeDefined();
      expect(output).toContain(`sandbox:    ${production}sandbox/  (key sk_test_cli_check)`);

      const query =
        "plans?product_id=8457293627449&product_title=Laptop&price_amount=129900&price_currency=eur";
      const sandbox = await fetch(`${production}sandbox/${query}`, {
        headers: { authorization: "Bearer sk_test_cli_check" },
      });
      const live = await fetch(`${production}${query}`, {
        headers: { authorization: "Bearer sk_live_cli_check" },
      });
      expect(sandbox.status).toBe(200);
      expect(live.status).toBe(200);

      child.kill("SIGTERM");
      const [exitCode] = await once(child, "exit");
      expect(exitCode).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("refuses a port that is not a number", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "emulator/main.ts"], {
      cwd: projectRoot,
      env: { ...process.env, SVC_EMULATOR_PORT: "forty" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const [exitCode] = await once(child, "exit");
    expect(exitCode).toBe(1);
    expect(errors).toContain(
      'SVC_EMULATOR_PORT must be a port number from 0 to 65535, got "forty"',
    );
  });
});
