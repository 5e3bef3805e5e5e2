import { connect, type TLSSocket } from 'node:tls';

/** A TLS connection to a test server that writes whatever a test wants, byte for byte. */
export interface RawTlsConnection {
  socket: TLSSocket;
  closed(): boolean;
  /** Everything the server sent so far, as Latin-1. */
  received(): string;
}

/** Resolves once connected; rejects if the connection fails first (later errors are ignored). */
export function openRawTls(port: number, ca: string): Promise<RawTlsConnection> {
  return new Promise((resolve, reject) => {
    let closed = false;
    let received = '';
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => resolve({ socket, closed: () => closed, received: () => received }));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}
