import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of the test database server, to take the database away from an app and give it back
 * without touching the shared server: `down()` cuts every relayed connection and refuses new ones (a stopped
 * or restarting server), `freeze()` keeps connections open but passes nothing on (a frozen server or a silent
 * partition), `up()` relays again.
 */
export interface DbProxy {
  /** `databaseUrl` with its host and port replaced by the relay's. */
  readonly url: string;
  down(): Promise<void>;
  freeze(): void;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startDbProxy(databaseUrl: string): Promise<DbProxy> {
  const target = new URL(databaseUrl);
  const targetPort = Number(target.port || (target.protocol.startsWith('postgres') ? 5432 : 3306));
  const sockets = new Set<Socket>();
  let frozen = false;
  let server: Server | null = null;
  let port = 0;

  const relay = (client: Socket) => {
    const upstream = connectTcp(targetPort, target.hostname);
    sockets.add(client).add(upstream);
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer(relay);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server!.address();
        port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await listen();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    down: stop,
    freeze: () => void (frozen = true),
    async up() {
      frozen = false;
      if (!server) await listen();
    },
    close: stop,
  };
}
