import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { BenchmarkError } from "./stats";

function newestMtime(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    return Math.max(newest, mtime);
  }, 0);
}

/**
 * Builds the app when build/ is missing or older than app/, under a lock that every build on
 * this machine takes (benchmarks, the chaos run, engineers), so two never write build/ at once.
 */
export function ensureBuild(root: string, say: (line: string) => void = console.log) {
  const serverBuild = path.join(root, "build/server/index.js");
  if (
    existsSync(serverBuild) &&
    statSync(serverBuild).mtimeMs >= newestMtime(path.join(root, "app"))
  ) {
    say("build/ is up to date");
    return;
  }
  say("build/ is missing or older than app/: flock /tmp/svc-build.lock npm run build");
  const build = spawnSync("flock", ["/tmp/svc-build.lock", "npm", "run", "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new BenchmarkError(`npm run build failed (exit ${build.status})`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Pinning {
  /** taskset's CPU list for the app's processes, or null when they run unpinned. */
  cpus: string | null;
  description: string;
}

/**
 * The targets are for a 2-core machine: the server and the worker run on CPUs 0 and 1. When
 * the machine has more, the load generator (this process) moves to the others.
 */
export function decidePinning(): Pinning {
  const cpuCount = os.availableParallelism();
  const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;
  if (!hasTaskset || cpuCount < 2) {
    const why = hasTaskset ? `the machine has ${cpuCount} CPU` : "taskset is not available";
    return { cpus: null, description: `not pinned (${why})` };
  }
  const app = "server and worker pinned to CPUs 0,1 (taskset -c 0,1)";
  if (cpuCount === 2) {
    return {
      cpus: "0,1",
      description: `${app}; the machine has only 2 CPUs, so the load generator, the emulator and PostgreSQL share them`,
    };
  }
  const others = `2-${cpuCount - 1}`;
  const moved = spawnSync("taskset", ["-a", "-p", "-c", others, String(process.pid)]).status === 0;
  return {
    cpus: "0,1",
    description: moved
      ? `${app}; load generator and emulator on CPUs ${others}; PostgreSQL unpinned`
      : `${app}; the load generator could not be moved off them`,
  };
}

export interface AppProcess {
  /** The process spawned (with taskset it execs, so this is node's pid). */
  pid: number;
  child: ChildProcess;
  exitCode(): number | null | undefined;
  stop(): Promise<void>;
}

/**
 * The node arguments of an npm script of package.json (`node <args>`), so that the benchmark runs
 * exactly what `npm start` and `npm run worker` run, heap limit included.
 */
export function nodeArgsOfNpmScript(cwd: string, name: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(cwd, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  // `exec node …`: npm's shell becomes node, so a stop signal sent to npm reaches it.
  const words = (manifest.scripts?.[name] ?? "").trim().split(/\s+/);
  const [command, ...args] = words[0] === "exec" ? words.slice(1) : words;
  if (command !== "node" || !args.length) {
    throw new BenchmarkError(`npm script "${name}" is not a plain "[exec] node <args>" command`);
  }
  return args;
}

/** An npm script's node process, run directly (no npm in between, so signals reach it). */
export function spawnAppScript(options: {
  npmScript: "start" | "worker";
  cwd: string;
  env: NodeJS.ProcessEnv;
  pinning: Pinning;
  logPath: string;
}): AppProcess {
  const nodeArgs = nodeArgsOfNpmScript(options.cwd, options.npmScript);
  const [command, args] = options.pinning.cpus
    ? ["taskset", ["-c", options.pinning.cpus, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  // Straight to a file: a pipe to this busy process could slow the server down.
  const log = openSync(options.logPath, "a");
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  if (child.pid === undefined)
    throw new BenchmarkError(`Failed to spawn npm script ${options.npmScript}`);
  let exit: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = code ?? (signal ? -1 : null);
      resolve();
    }),
  );
  const pid = child.pid;
  return {
    pid,
    child,
    exitCode: () => exit,
    async stop() {
      if (exit !== undefined) return;
      const descendants = descendantPids(pid);
      child.kill("SIGTERM");
      const stopped = await settlesWithin(exited, 20_000);
      for (const descendant of [pid, ...descendants]) {
        if (!stopped || isAlive(descendant)) killQuietly(descendant);
      }
      await exited;
    },
  };
}

/** Whether `promise` settles within `ms`; the timer does not keep the process alive after. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killQuietly(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Direct children, from /proc/<pid>/task/<tid>/children, or by scanning /proc when absent. */
export function childPids(pid: number): number[] {
  const taskDir = `/proc/${pid}/task`;
  if (!existsSync(taskDir)) return [];
  const listed = readdirSync(taskDir).map((tid) => `${taskDir}/${tid}/children`);
  if (listed.every((file) => existsSync(file))) {
    return listed.flatMap((file) =>
      readFileSync(file, "utf8").split(/\s+/).filter(Boolean).map(Number),
    );
  }
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The command name is in parentheses and may hold spaces: the parent pid follows it.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function descendantPids(pid: number): number[] {
  return childPids(pid).flatMap((child) => [child, ...descendantPids(child)]);
}

/** Peak resident set size (VmHWM) of a live process, in bytes. */
export function peakRssBytes(pid: number): number {
  return statusBytes(pid, "VmHWM");
}

/** Current resident set size (VmRSS) of a live process, in bytes. */
export function rssBytes(pid: number): number {
  return statusBytes(pid, "VmRSS");
}

function statusBytes(pid: number, field: "VmHWM" | "VmRSS"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, "m").exec(status);
  if (!match) throw new BenchmarkError(`Failed to read ${field} of process ${pid}`);
  return Number(match[1]) * 1024;
}

export function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
}

/** server/start.ts migrates, then serves from a child process: that child is the web server. */
export function servingPid(launcher: AppProcess): number {
  const serving = childPids(launcher.pid).filter((pid) =>
    commandOf(pid).includes("server/serve.ts"),
  );
  if (serving.length !== 1) {
    throw new BenchmarkError(
      `Expected one server/serve.ts child of server/start.ts, found ${serving.length}`,
    );
  }
  return serving[0]!;
}

/** Polls GET /healthz until it answers 200; fails early if the process exits. */
export async function waitForHealthy(
  port: number,
  app: AppProcess,
  timeoutMs: number,
  logPath: string,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode() !== undefined) {
      throw new BenchmarkError(
        `The server exited (code ${app.exitCode()}) before it was ready; see ${logPath}`,
      );
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new BenchmarkError(
    `The server did not answer /healthz within ${timeoutMs / 1000} s; see ${logPath}`,
  );
}
