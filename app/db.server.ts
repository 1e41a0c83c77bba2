import { createPrismaClient, type AppPrismaClient } from "./db/client.server";
import { getEnv } from "./env.server";

declare global {
  // Keeps one client across Vite's hot reloads in development.
  var svcPrismaGlobal: AppPrismaClient | undefined;
}

const prisma: AppPrismaClient = (globalThis.svcPrismaGlobal ??= createPrismaClient(
  getEnv().DATABASE_URL,
  getEnv().DATABASE_POOL_SIZE,
));

export default prisma;
