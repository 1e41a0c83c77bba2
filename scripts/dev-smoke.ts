import { spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { parseEnv } from "node:util";
import { mintSessionToken } from "../store/server/session-token";
import { APP_HANDLE, DEMO_SHOP } from "./local-demo";

// README command 1's smoke check: starts `bash scripts/dev.sh` as a newcomer does (on free ports,
// so a running copy is left alone), waits for its demo shop, checks the app, the shop's product
// page with our offer block and the embedded admin, then stops everything it started. One line
// per check; exits 1 when any fails. Usage: node --import tsx scripts/dev-smoke.ts

const root = path.resolve(import.meta.dirname, "..");
const START_TIMEOUT_MS = Number(process.env.SVC_SMOKE_TIMEOUT_S ?? 300) * 1000;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36";
const logFile = path.join(root, "test/artifacts/dev-smoke.log");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

const checks: Check[] = [];
function record(name: string, ok: boolean, detail: string) {
  checks.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${detail}`);
}

const [appPort, emulatorPort, storePort] = [await freePort(), await freePort(), await freePort()];
const appUrl = `http://localhost:${appPort}`;
const storeUrl = `http://localhost:${storePort}`;
const log = createWriteStream(logFile);
let output = "";

console.log(
  `Command 1 smoke check: bash scripts/dev.sh (its output: ${path.relative(root, logFile)})`,
);
const started = Date.now();
const dev = spawn("bash", ["scripts/dev.sh"], {
  cwd: root,
  // Its own process group, so that the check stops dev.sh, npm, the app and Vite together.
  detached: true,
  stdio: ["ignore", "pipe", "pipe"],
  env: {
    ...process.env,
    PORT: String(appPort),
    SHOPIFY_APP_URL: appUrl,
    SVC_EMULATOR_PORT: String(emulatorPort),
    SVC_STORE_PORT: String(storePort),
    SVC_LOCAL_DEMO: "setup",
    NO_COLOR: "1",
  },
});
const exited = new Promise<number | null>((resolve) => dev.once("exit", (code) => resolve(code)));
for (const stream of [dev.stdout, dev.stderr]) {
  stream.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    log.write(chunk);
  });
}

/** Resolves with the demo's outcome line, or a reason it never came. */
async function demoOutcome(): Promise<{ ready: boolean; detail: string }> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let code: number | null | undefined;
  void exited.then((value) => (code = value));
  while (Date.now() < deadline) {
    if (output.includes("svc-protection is running")) {
      return { ready: true, detail: `set up in ${((Date.now() - started) / 1000).toFixed(0)} s` };
    }
    const failed = /the demo failed: .*/.exec(output);
    if (failed) return { ready: false, detail: failed[0] };
    if (code !== undefined) return { ready: false, detail: `dev.sh exited with ${code}` };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { ready: false, detail: `no demo shop within ${START_TIMEOUT_MS / 1000} s` };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const answer = await fetch(url, { headers: { "User-Agent": BROWSER, ...headers } });
  return { status: answer.status, text: await answer.text() };
}

async function runChecks() {
  const demo = await demoOutcome();
  record("demo shop set up", demo.ready, demo.detail);
  if (!demo.ready) return;

  const health = await get(`${appUrl}/healthz`);
  record("app /healthz", health.status === 200, `${health.status} at ${appUrl}/healthz`);

  const productUrl = /Product page\s+(\S+)/.exec(output)?.[1] ?? "";
  const product = await get(productUrl);
  record(
    "store product page",
    product.status === 200 && product.text.includes("data-svc-offer"),
    `${product.status} at ${productUrl}, ${product.text.includes("data-svc-offer") ? "with" : "WITHOUT"} the protection offer block`,
  );

  const adminUrl = `${storeUrl}/admin/apps/${APP_HANDLE}`;
  const admin = await get(adminUrl);
  record(
    "store admin",
    admin.status === 200 && admin.text.includes(`localhost:${appPort}`),
    `${admin.status} at ${adminUrl}, ${admin.text.includes(`localhost:${appPort}`) ? "framing" : "NOT framing"} the app`,
  );

  // The app's home page data, as the embedded admin asks for it: step 1 done (a verified key).
  const env = parseEnv(readFileSync(path.join(root, ".env"), "utf8"));
  const { token } = mintSessionToken({
    shop: DEMO_SHOP,
    apiKey: process.env.SHOPIFY_API_KEY ?? env.SHOPIFY_API_KEY ?? "",
    apiSecret: process.env.SHOPIFY_API_SECRET ?? env.SHOPIFY_API_SECRET ?? "",
    userId: "1",
    now: new Date(),
  });
  const home = await get(
    `${appUrl}/app?shop=${DEMO_SHOP}&_data=${encodeURIComponent("routes/app._index")}`,
    { Authorization: `Bearer ${token}` },
  );
  const step = home.status === 200 ? stepOne(home.text) : undefined;
  record(
    "app admin home",
    step?.done === true,
    `${home.status}; step 1 (sandbox key) ${step === undefined ? "not found" : step.done ? "done" : "open"}`,
  );
}

function stepOne(text: string): { done: boolean } | undefined {
  const page = JSON.parse(text) as { checklist?: { steps?: { id: string; done: boolean }[] } };
  return page.checklist?.steps?.find((step) => step.id === "sandbox_key");
}

/** SIGTERM to the whole group (dev-local stops the app, store and emulator), SIGKILL after 20 s. */
async function stopDev() {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-dev.pid!, name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
  // dev.sh's children may outlive it by a moment; nothing of the group may stay.
  signal("SIGKILL");
}

try {
  await runChecks();
} catch (error) {
  record("checks", false, error instanceof Error ? error.message : String(error));
} finally {
  await stopDev();
  log.end();
}

const stillOpen = [];
for (const port of [appPort, emulatorPort, storePort]) {
  const open = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (open) stillOpen.push(port);
}
record(
  "everything stopped",
  stillOpen.length === 0,
  stillOpen.length === 0 ? "no port still answers" : `ports ${stillOpen.join(", ")} still answer`,
);

const failed = checks.filter((check) => !check.ok);
if (failed.length > 0) {
  console.log(`\nThe end of dev.sh's output:\n${output.slice(-3_000)}`);
}
console.log(
  `Command 1 smoke check: ${checks.length - failed.length} passed, ${failed.length} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(failed.length > 0 ? 1 : 0);
