import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CertificatePaths {
  certFile: string;
  keyFile: string;
}

/**
 * The local default's TLS certificate: made once for localhost and 127.0.0.1 and kept in the
 * data folder, so that restarts keep the same one (and a client that pinned it keeps working).
 */
export async function ensureSelfSignedCertificate(dataDir: string): Promise<CertificatePaths> {
  const dir = join(dataDir, 'tls');
  const paths = { certFile: join(dir, 'localhost-cert.pem'), keyFile: join(dir, 'localhost-key.pem') };
  if (existsSync(paths.certFile) && existsSync(paths.keyFile)) return paths;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Loaded only to make the certificate, once: with it, some 200 modules of ASN.1 and X.509 code.
  const { generate } = await import('selfsigned');
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 825 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  writeFileSync(paths.keyFile, pems.private, { mode: 0o600 });
  writeFileSync(paths.certFile, pems.cert, { mode: 0o644 });
  return paths;
}

export function readCertificate(paths: CertificatePaths): { cert: string; key: string } {
  return { cert: readFileSync(paths.certFile, 'utf8'), key: readFileSync(paths.keyFile, 'utf8') };
}
