// `npm start`: the whole service on one machine — Redis, the API over HTTPS, and WORKERS worker
// processes — supervised until Ctrl-C or SIGTERM, which stops everything in order.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { CONFIG_EXIT_CODE, ConfigError, displayClusterNodes, displayUrl, fields, parseEnv } from '@ces/config';
import {
  ensureSelfSignedCertificate,
  ensureServiceSecretsKey,
  isPortFree,
  isRedisServerOnPath,
  REDIS_INSTALL_HINT,
  startLocalRedis,
  SupervisedProcess,
  writeServiceRedisUrl,
  type LocalRedis,
} from '@ces/local-runtime';
import { z } from 'zod';

const DEFAULT_REDIS_PORT = 6379;

const schema = z.object({
  PORT: fields.port(8443),
  WORKERS: z.coerce.number().int().min(0).max(64).default(2),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'expected a redis:// URL')
    .optional(),
  /** A Redis Cluster to use instead (no local Redis then): its nodes, as the API and workers read them. */
  REDIS_CLUSTER_NODES: fields.redisClusterNodes,
  /** Port of the local Redis when REDIS_URL is not set; another free port when it is taken. */
  LOCAL_REDIS_PORT: fields.port(DEFAULT_REDIS_PORT),
  DATA_DIR: z.string().default('.data'),
  ACCOUNTS_FILE: z.string().optional(),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  TRUST_PROXY: fields.boolean(false),
  WORKER_SHUTDOWN_GRACE_SECONDS: fields.shutdownGraceSeconds,
});

let config: z.infer<typeof schema>;
try {
  config = parseEnv(schema, process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`start: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const root = resolve(import.meta.dirname, '..');
const dataDir = resolve(root, config.DATA_DIR);
const say = (message: string) => process.stdout.write(`[start] ${message}\n`);

const externalRedis = config.REDIS_URL !== undefined || config.REDIS_CLUSTER_NODES !== undefined;
if (!externalRedis && !isRedisServerOnPath()) {
  process.stderr.write(`[start] ${REDIS_INSTALL_HINT}\n`);
  process.exit(1);
}

let redis: LocalRedis | undefined;
const children: SupervisedProcess[] = [];
let api: SupervisedProcess | undefined;
/** The API stops within ten seconds by itself (its open requests end or are cut off). */
const API_STOP_MS = 15_000;
let stopping = false;

async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  // Redis last, so that workers hand unfinished runs back while it is still there. A worker may
  // take its whole grace period to do so (waits are interrupted two seconds before it ends), and
  // exits by itself at its end: killing it sooner would lose the hand-back.
  await Promise.all(children.map((child) => child.stop(child === api ? API_STOP_MS : config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000 + 10_000)));
  await redis?.close();
  say('stopped');
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(0));

try {
  if (!externalRedis) {
    redis = await startLocalRedis({
      dataDir: resolve(dataDir, 'redis'),
      appendOnly: true,
      // The usual port when it is free, so that other Redis clients find it with their defaults.
      port: (await isPortFree(config.LOCAL_REDIS_PORT)) ? config.LOCAL_REDIS_PORT : 0,
    });
  }
  const clusterNodes = config.REDIS_CLUSTER_NODES;
  const redisUrl = clusterNodes ? undefined : (config.REDIS_URL ?? (redis as LocalRedis).url);
  if (clusterNodes) say(`using the Redis Cluster at ${displayClusterNodes(clusterNodes)}`);
  else if (config.REDIS_URL) say(`using Redis at ${displayUrl(config.REDIS_URL, 'REDIS_URL')}`);
  else say(`Redis started on ${redisUrl} (data in ${resolve(dataDir, 'redis')})`);
  // `npm run admin` reads it when REDIS_URL is not set, whichever port the local Redis got (with a
  // Cluster, it reads REDIS_CLUSTER_NODES as the services do).
  if (redisUrl) writeServiceRedisUrl(dataDir, redisUrl);

  const tls = config.TRUST_PROXY || (config.TLS_CERT_FILE && config.TLS_KEY_FILE) ? undefined : await ensureSelfSignedCertificate(dataDir);
  const demo = config.ACCOUNTS_FILE ? undefined : ensureDemoAccounts(resolve(dataDir, 'demo-accounts.json'));
  const accountsFile = demo?.file ?? config.ACCOUNTS_FILE;

  // The key that seals presets, stored tokens and secret outputs, made once beside the local Redis
  // data: the API, every worker started here and `npm run admin` share it. A deployment sets
  // SECRETS_KEY itself instead.
  const secretsKey = process.env.SECRETS_KEY?.trim() ? undefined : ensureServiceSecretsKey(dataDir);
  const env = {
    ...process.env,
    ...(secretsKey ? { SECRETS_KEY: secretsKey } : {}),
    // PUBLIC_BASE_URL, when set, goes to the API and workers as it is; without it each run's URLs are
    // made under the address its client used (https://localhost:<PORT>, most often).
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    DATA_DIR: dataDir,
    CHOREOS_DIR: process.env.CHOREOS_DIR ?? resolve(root, 'choreos'),
    ACCOUNTS_FILE: accountsFile,
    ...(tls ? { TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile } : {}),
  };
  const onExit = ({ name, code, signal, restarting }: { name: string; code: number | null; signal: string | null; restarting: boolean }) => {
    if (stopping) return;
    if (code === CONFIG_EXIT_CODE) {
      // Starting it again would only print the same refusal: stop, with the reason last on screen.
      process.stderr.write(`[start] ${name} refused its configuration (the variables named above); stopping\n`);
      void stopAll(1);
      return;
    }
    say(`${name} exited (${signal ?? `code ${code}`})${restarting ? '; restarting it' : ''}`);
  };
  const supervision = { env, restart: true, noRestartExitCode: CONFIG_EXIT_CODE, onExit };
  api = new SupervisedProcess({ name: 'api', command: process.execPath, args: [resolve(root, 'apps/api/src/main.ts')], ...supervision });
  children.push(api);
  for (let i = 1; i <= config.WORKERS; i += 1) {
    children.push(new SupervisedProcess({ name: `worker ${i}`, command: process.execPath, args: [resolve(root, 'apps/worker/src/main.ts')], ...supervision }));
  }
  for (const child of children) child.start();

  await waitUntilReady(config.PORT, config.WORKERS, Boolean(tls || config.TLS_CERT_FILE) && !config.TRUST_PROXY);
  const scheme = config.TRUST_PROXY ? 'http' : 'https';
  say(`ready: API on ${scheme}://localhost:${config.PORT}/service-api/1.0 with ${config.WORKERS} worker processes`);
  if (demo) {
    say(`demo account "demo": user admin / ${demo.password}, application demo-app / ${demo.key}`);
    say(`operator (for /ops and /metrics): oncall / ${demo.operatorPassword}`);
    say(`queue dashboard: ${scheme}://oncall:${encodeURIComponent(demo.operatorPassword)}@localhost:${config.PORT}/ops/queues`);
    if (!demo.created) say(`as written in ${demo.file} at the first start; the admin command line may have changed them since`);
    say('try it:');
    // Our own certificate, or the one configured; none to name behind a proxy that terminates TLS.
    const caFile = tls?.certFile ?? (config.TRUST_PROXY ? undefined : config.TLS_CERT_FILE);
    process.stdout.write(
      `curl ${caFile ? `--cacert ${caFile} ` : ''}-u 'demo-app:${demo.key}' -H 'x-service-domain: /demo/master' ` +
        `-H 'Accept: application/json' -H 'Content-Type: application/json' ` +
        `-d '{"inputs":[{"name":"Text","value":"hello"}]}' ` +
        `https://localhost:${config.PORT}/service-api/1.0/choreos/Library/Utilities/Encoding/Base64Encode\n`,
    );
    // Shell words in single quotes: a path or a generated secret passes through as it is.
    const word = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
    say('or with the command line (npx ces --help), once these are set:');
    process.stdout.write(
      `export CES_URL=${scheme}://localhost:${config.PORT} CES_ACCOUNT=demo CES_USER=admin CES_PASSWORD=${word(demo.password)}` +
        `${caFile ? ` CES_CA_FILE=${word(caFile)}` : ''}\n`,
    );
  }
  say('Ctrl-C stops everything');
} catch (error) {
  process.stderr.write(`[start] ${(error as Error).message}\n`);
  await stopAll(1);
}

/** A demo account made once with random secrets, so `npm start` works with nothing prepared. */
function ensureDemoAccounts(file: string) {
  const created = !existsSync(file);
  if (created) {
    // The operator's password is not the demo user's: one reaches /ops and /metrics, the other a tenant's runs.
    const secrets = {
      password: randomBytes(12).toString('base64url'),
      key: randomBytes(32).toString('base64url'),
      operatorPassword: randomBytes(12).toString('base64url'),
    };
    const accounts = {
      accounts: [
        {
          name: 'demo',
          users: [{ name: 'admin', password: secrets.password, choreos: ['/**'] }],
          apps: [{ name: 'demo-app', key: secrets.key, choreos: ['/**'], rights: ['presets'] }],
        },
      ],
      operators: [{ name: 'oncall', password: secrets.operatorPassword }],
    };
    writeFileSync(file, JSON.stringify(accounts, null, 2), { mode: 0o600 });
  }
  const parsed = JSON.parse(readFileSync(file, 'utf8'));
  return {
    file,
    created,
    password: parsed.accounts[0].users[0].password as string,
    key: parsed.accounts[0].apps[0].key as string,
    operatorPassword: parsed.operators[0].password as string,
  };
}

/** Polls /readyz until Redis answers and every worker has sent its first heartbeat. */
async function waitUntilReady(port: number, workers: number, https: boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const body = await readyz(port, https).catch(() => undefined);
    if (body?.status === 'ready' && body.workers >= workers) return;
    if (Date.now() > deadline) throw new Error('the service did not become ready within 60 s');
    await new Promise((done) => setTimeout(done, 200));
  }
}

function readyz(port: number, https: boolean): Promise<{ status: string; workers: number }> {
  return new Promise((resolveBody, reject) => {
    const options = { host: '127.0.0.1', port, path: '/readyz', rejectUnauthorized: false, timeout: 2_000 };
    const req = (https ? request : httpRequest)(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          resolveBody(JSON.parse(text));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}
