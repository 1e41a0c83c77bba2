# The release image (decision 040): one image for the web process (the default), the worker and
# the release step, each by command:
#   docker build -t svc-protection .
#   docker run --env-file .env -p 3000:3000 svc-protection                    # web
#   docker run --env-file .env svc-protection node --max-old-space-size=128 --import tsx server/worker.ts
#   docker run --env-file .env svc-protection node --import tsx scripts/migrate.ts   # release step
# `npm start`, `npm run worker` and `npm run db:migrate` work too (their scripts `exec` node, so
# npm's stop signal reaches it), but node as the container's main process spares npm's memory.
# docs/deploy.md has the recipes; docker-compose.yml the scale-out.

# Debian (glibc), not Alpine: better-sqlite3 is a native addon, and CI builds and boots the
# release (npm run test:release) on glibc Linux, so the image runs the binary CI tested.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3's install script downloads a prebuilt binary, or compiles one with these.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build, the Prisma clients and production dependencies only, in /release: the same script
# CI runs (npm run test:release boots its output as two web processes and two workers).
RUN bash scripts/release.sh /release

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
  PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /release ./
# For SQLite on a volume (one instance): DATABASE_URL=file:/data/svc.sqlite, a volume at /data.
RUN mkdir /data && chown node:node /data
USER node
EXPOSE 3000
# Liveness (decision 048): /healthz makes no database call, so a database outage never gets a
# healthy container replaced. A load balancer asks /readyz, which is 503 from SIGTERM on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# npm start without npm: node is the container's main process, so `docker stop` reaches it.
CMD ["node", "--max-old-space-size=160", "--import", "tsx", "server/start.ts"]
