# One image for the API and the workers; the command chooses which runs.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/cli/package.json apps/cli/
COPY packages/ packages/
COPY scripts/package.json scripts/
COPY test/package.json test/
COPY bench/package.json bench/
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Writable by the unprivileged user, for a self-signed certificate when no TLS files are mounted.
ENV DATA_DIR=/tmp/ces-data
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY package.json tsconfig.json ./
COPY apps/ apps/
COPY packages/ packages/
COPY choreos/ choreos/
USER node
EXPOSE 8443
# Node runs the TypeScript sources directly (type stripping): there is no build output to ship.
CMD ["node", "apps/api/src/main.ts"]
