# Production image for the API and the worker (same image, different command).
# NODE_IMAGE: a glibc Node 20 (the Temporal SDK's native core and @resvg/resvg-js ship glibc builds) with apt;
# the official image by default, or one made from Debian's own packages where no registry can be reached
# (docs/production.md: `mmdebstrap … trixie` with nodejs and npm, then `docker import`).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# Everything .dockerignore leaves; what is compiled is tsconfig.build.json's `include`, the one folder list.
COPY . .
# What only development runs leaves with the dev dependencies: the embedded servers of `npm start`, its
# entry point and the build's own tools and state (test/foundation/productionImage.test.ts holds the entry
# points to it).
RUN npm run build && npm prune --omit=dev \
  && rm -rf dist/server/embedded dist/scripts/start.js dist/scripts/setup-temporal.js dist/scripts/bundle-*.js \
    dist/.tsbuildinfo

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
# LibreOffice converts DOCX uploads to PDF (headless); janus-pp-rec and FFmpeg make the act's recording;
# Poppler renders document pages for the signing; passwd for the unprivileged user below.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libreoffice-writer-nogui fonts-dejavu-core \
     janus-tools ffmpeg poppler-utils passwd ca-certificates \
  && rm -rf /var/lib/apt/lists/*
RUN groupadd --system app && useradd --system --gid app --home /app app \
  && mkdir -p /app/data && chown app:app /app/data
# What a process keeps of its own (the API's address for the admin CLI); evidence lives in PostgreSQL and S3.
ENV DATA_DIR=/app/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER app
# Two malloc arenas instead of one per thread: see PRODUCTION_PROCESS_ENV in src/process.ts.
ENV MALLOC_ARENA_MAX=2
EXPOSE 3000
# docker-compose runs the worker with `node --max-old-space-size=256 dist/scripts/start-worker.js` (WORKER_NODE_ARGS in src/process.ts).
CMD ["node", "dist/scripts/start-api.js"]
