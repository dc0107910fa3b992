# The service image: compiled JavaScript run by `node` itself, production dependencies only, as the `node` user.
#   docker build -t dialysis-records .
#   docker run --init --stop-timeout 20 -p 127.0.0.1:3000:3000 -v dialysis-data:/data dialysis-records
# Every stage uses the same Node major and Debian release: the native modules (better-sqlite3, argon2) compiled
# in the build stages are copied into the runtime stage as they are.

# Production dependencies, compiled where python3, make and g++ exist.
FROM node:24-bookworm AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# All dependencies (TypeScript, esbuild, chart.js) to compile src/ to dist/src/ and bundle the /panel page into dist/panel/.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-panel.mjs ./scripts/
COPY panel ./panel
COPY src ./src
RUN npm run build && test -s dist/panel/panel.js.br && test -s dist/docs/swagger-ui-bundle.js.br

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root and read-only to the service: only DATA_DIR is writable.
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -m 700 /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
# The slim image has no curl: node's own fetch.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is the process `docker stop` signals, and its SIGTERM handler drains requests and closes the
# stores (an `npm start` or `sh -c` in between did not pass the signal on). `--init` (compose: init: true) adds
# a minimal init as PID 1, so a signal that arrives before the handler is installed still stops the process.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
