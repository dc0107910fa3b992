# The service image: Node 20, dependencies from the lock file, started with `npm start` (node + tsx, src/main.ts).
FROM node:20-bookworm
WORKDIR /app
# Dependencies first, so code changes reuse the cached layer (better-sqlite3 may compile here:
# the full node image has python3, make and g++).
COPY package.json package-lock.json ./
RUN npm ci && npm cache clean --force
COPY . .
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["npm", "start"]
