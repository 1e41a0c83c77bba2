import { json } from "@remix-run/node";

// Liveness (decision 048): the process answers. No database call, so a database outage never
// gets a healthy process restarted; /readyz says whether it should receive traffic. In
// production server/serve.ts answers both probes before Express; this route serves `npm run dev`.
export const loader = () => json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
