# Production image for the API and the worker (same image, different command).
# glibc base: the Temporal SDK's native core and @resvg/resvg-js ship glibc builds.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY core ./core
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
COPY migrations ./migrations
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# LibreOffice converts DOCX uploads to PDF (headless); janus-pp-rec and FFmpeg make the act's recording;
# Poppler renders document pages for the signing.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libreoffice-writer-nogui fonts-dejavu-core \
     janus-tools ffmpeg poppler-utils \
  && rm -rf /var/lib/apt/lists/*
RUN groupadd --system app && useradd --system --gid app --home /app app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER app
# Two malloc arenas instead of one per thread: see PRODUCTION_PROCESS_ENV in src/process.ts.
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
# Dev-only packages (embedded PostgreSQL, Temporal's test server, test tools) were pruned in the build stage.
# docker-compose runs the worker with `node --max-old-space-size=256 dist/scripts/start-worker.js` (WORKER_NODE_ARGS in src/process.ts).
CMD ["node", "dist/scripts/start-api.js"]
