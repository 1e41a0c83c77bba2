import { gzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/*
 * Shopify serves storefront pages and its CDN's assets gzipped. Without it, the store would make
 * every script and stylesheet several times its real weight on the wire, and a page measured
 * here (bench:dawn) would pay for bytes a buyer on Shopify never downloads.
 */

const COMPRESSIBLE = /^(text\/|application\/(javascript|json)|image\/svg\+xml)/;
/** Below this, gzip's header costs about what it saves. */
const MIN_BYTES = 1024;

/**
 * Gzips the storefront's text answers for a browser that accepts it; paths under `exceptUnder`
 * (the back office and the control API) are answered as they are.
 */
export function gzipStorefrontAnswers(app: FastifyInstance, exceptUnder: string[]): void {
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload) => {
    if (exceptUnder.some((prefix) => request.url.startsWith(`${prefix}/`))) return payload;
    if (!/\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) return payload;
    if (reply.hasHeader("content-encoding")) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader("content-type") ?? ""))) return payload;
    const bytes = typeof payload === "string" ? Buffer.from(payload) : payload;
    if (bytes.length < MIN_BYTES) return payload;
    reply.header("content-encoding", "gzip");
    reply.header("vary", "Accept-Encoding");
    reply.removeHeader("content-length");
    return gzipSync(bytes);
  });
}
