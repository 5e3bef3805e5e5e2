export {
  findFreePort,
  isPortFree,
  isRedisServerOnPath,
  REDIS_INSTALL_HINT,
  RedisServerNotFoundError,
  startLocalRedis,
  type LocalRedis,
  type LocalRedisOptions,
} from './redis-server.ts';
export { type ClusterNode, type LocalRedisCluster, startRedisCluster } from './redis-cluster.ts';
export { ensureSelfSignedCertificate, readCertificate, type CertificatePaths } from './self-signed-certificate.ts';
export { SupervisedProcess, type SupervisedProcessOptions } from './supervised-process.ts';
export { readServiceRedisUrl, writeServiceRedisUrl } from './service-redis-file.ts';
export { ensureServiceSecretsKey, readServiceSecretsKey } from './service-secrets-key-file.ts';
