import { spawn, execFileSync } from "node:child_process";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, nodeArgsOfNpmScript } from "../../scripts/bench/processes";
import { createThrowawayDatabase, testDatabaseProvider } from "../support/databases";
import { repoRoot } from "../support/test-env";

// `npm start` and `npm run worker` as an operator runs them, NODE_ENV unset: production, which
// refuses what is unsafe with one line naming the variable and the step, and exits non-zero when
// its server dies (decision 038). Migrations at start or as a release step: decision 039.

const provider = testDatabaseProvider();

interface Started {
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

const running: Started[] = [];

// SIGTERM first: npm start passes it to its server and both stop. A SIGKILL to npm start alone
// would leave its server running, an orphan holding a port and a database connection.
afterEach(async () => {
  for (const started of running.splice(0)) {
    started.kill("SIGTERM");
    const stopped = await Promise.race([started.exited.then(() => true), sleep(10_000)]);
    if (!stopped) {
      started.kill("SIGKILL");
      await started.exited;
    }
  }
});

/** The test's environment without NODE_ENV or the test's local store, `env` on top. */
function operatorEnv(env: Record<string, string | undefined>): Record<string, string> {
  const { NODE_ENV: _test, SHOPIFY_ADMIN_ORIGIN: _store, ...rest } = process.env;
  const merged = { ...rest, LOG_LEVEL: "info", HOST: "127.0.0.1", ...env };
  return Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function run(script: "start" | "worker", env: Record<string, string | undefined>): Started {
  return launch(process.execPath, nodeArgsOfNpmScript(repoRoot, script), env);
}

/** `command` as an operator runs it, its output kept, stopped after the test if still running. */
function launch(command: string, args: string[], env: Record<string, string | undefined>): Started {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: operatorEnv(env) as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const started: Started = {
    pid: child.pid!,
    output: () => output,
    exited: new Promise((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    ),
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
  running.push(started);
  return started;
}

async function healthy(port: number, started: Started) {
  let ended = false;
  void started.exited.then(() => (ended = true));
  for (const begun = Date.now(); Date.now() - begun < 30_000; await sleep(200)) {
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return;
    if (ended) throw new Error(`npm start ended:\n${started.output()}`);
  }
  throw new Error(`npm start did not become healthy:\n${started.output()}`);
}

const sleep = (ms: number) => new Promise<undefined>((resolve) => setTimeout(resolve, ms));

/** The server process npm start spawned (server/serve.ts). */
function serverPidOf(started: Started): number {
  const pids = execFileSync("ps", ["-o", "pid=", "--ppid", String(started.pid)], {
    encoding: "utf8",
  })
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter(Boolean);
  expect(pids).toHaveLength(1);
  return pids[0]!;
}

async function refusal(script: "start" | "worker", env: Record<string, string | undefined>) {
  const started = run(script, env);
  const exit = await started.exited;
  return { ...exit, output: started.output().trim() };
}

describe(`npm start on ${provider}, NODE_ENV unset`, () => {
  it("serves as production: React's production build, the exit code of a clean stop 0", async () => {
    const port = await freePort();
    const started = run("start", { PORT: String(port), SVC_OUTBOX_CONCURENCY: "4" });
    await healthy(port, started);
    const listening = started
      .output()
      .split("\n")
      .find((line) => line.includes("svc-protection is listening"));
    expect(JSON.parse(listening!)).toMatchObject({ nodeEnv: "production", react: "production" });
    expect(started.output()).toContain(
      "Warning: SVC_OUTBOX_CONCURENCY is not a setting of this app and is ignored: did you mean SVC_OUTBOX_CONCURRENCY?",
    );
    started.kill("SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });
  });

  it("stops cleanly when a supervisor signals npm itself, not node", async () => {
    // npm runs a script in a shell and signals only that shell: without `exec` in the script,
    // the shell died and left node running with its work unfinished.
    const port = await freePort();
    // The npm that runs these tests (npm run test:sqlite sets npm_execpath), else the PATH's.
    const npmCli = process.env.npm_execpath;
    const started = launch(
      npmCli ? process.execPath : "npm",
      [...(npmCli ? [npmCli] : []), "start", "--silent"],
      { PORT: String(port) },
    );
    await healthy(port, started);
    started.kill("SIGTERM");
    expect(await started.exited).toEqual({ code: 0, signal: null });
    expect(started.output()).toContain("Stopping: no new requests; finishing the ones in flight");
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    expect(answer).toBeUndefined();
  });

  it("exits 128 + the signal's number when its server process is killed", async () => {
    const port = await freePort();
    const started = run("start", { PORT: String(port) });
    await healthy(port, started);
    process.kill(serverPidOf(started), "SIGKILL");
    expect(await started.exited).toEqual({ code: 137, signal: null });
    expect(started.output()).toContain(
      "The server process was killed by SIGKILL: exiting with 137",
    );
  });

  it("refuses each unsafe setting, naming it", async () => {
    const result = await refusal("start", {
      DATABASE_URL: undefined,
      SHOPIFY_APP_URL: "http://app.example.com",
      SHOPIFY_ADMIN_ORIGIN: "http://127.0.0.1:4020",
      SVC_BASE_URL: "http://api.protection.example/",
    });
    expect(result.code).toBe(1);
    expect(result.output).toBe(
      "Invalid configuration: DATABASE_URL is required when NODE_ENV=production: file:/path/on/a/volume.sqlite (one instance) or postgresql://user:password@host:5432/db; " +
        "SHOPIFY_ADMIN_ORIGIN must not be set when NODE_ENV=production: it sends the app's Shopify calls to a local store; " +
        "SHOPIFY_APP_URL must be an https:// URL when NODE_ENV=production (http:// only for localhost or 127.0.0.1); " +
        "SVC_BASE_URL must be an https:// URL when NODE_ENV=production (http:// only for localhost or 127.0.0.1)",
    );
    // npm run worker is production too.
    const worker = await refusal("worker", { DATABASE_URL: undefined });
    expect(worker.code).toBe(1);
    expect(worker.output).toMatch(
      /^Invalid configuration: DATABASE_URL is required when NODE_ENV=production/,
    );
  });

  it("names the variable and the step when the database or the port fails", async () => {
    const database = "postgresql://app:do-not-print@127.0.0.1:1/app";
    const refused = await refusal("start", { DATABASE_URL: database });
    expect(refused).toMatchObject({ code: 1, signal: null });
    expect(refused.output).toBe(
      "DATABASE_URL: PostgreSQL at 127.0.0.1:1 refused the connection (migrations)",
    );
    const checked = await refusal("start", {
      DATABASE_URL: database,
      SVC_MIGRATE_ON_START: "false",
    });
    expect(checked.output).toBe(
      "DATABASE_URL: PostgreSQL at 127.0.0.1:1 refused the connection (database connection)",
    );
    const sqlite = await refusal("start", { DATABASE_URL: "file:/nonexistent-svc-dir/app.sqlite" });
    expect(sqlite.output).toBe(
      "DATABASE_URL: the directory /nonexistent-svc-dir of the SQLite file does not exist (migrations)",
    );

    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const busy = await refusal("start", { PORT: String(port) });
      expect(busy.code).toBe(1);
      expect(busy.output.split("\n").at(-1)).toBe(`PORT: ${port} is already in use (listening)`);
    } finally {
      taken.close();
    }
  });

  it("with SVC_MIGRATE_ON_START=false, starts on a migrated database and refuses a pending one", async () => {
    const empty = await createThrowawayDatabase(provider);
    try {
      const pending = await refusal("start", {
        DATABASE_URL: empty.url,
        SVC_MIGRATE_ON_START: "false",
      });
      expect(pending.code).toBe(1);
      expect(pending.output).toMatch(
        /^DATABASE_URL: \d+ migration\(s\) not applied \(\d+_init.*\) and SVC_MIGRATE_ON_START=false: run `npm run db:migrate` first \(migrations\)$/,
      );
    } finally {
      await empty.drop();
    }
    const port = await freePort();
    const started = run("start", { PORT: String(port), SVC_MIGRATE_ON_START: "false" });
    await healthy(port, started);
    expect(started.output()).toMatch(
      new RegExp(
        `Migrations \\(${provider}\\): not run at start \\(SVC_MIGRATE_ON_START=false\\); all \\d+ applied`,
      ),
    );
  });
});
