import type net from 'node:net';

/** Starts `server` listening on `host`:`port` (0: a free one) and answers the port it got. */
export async function listenOn(server: net.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

/** The port `server` listens on, or null when it does not. */
export function boundPort(server: net.Server | null | undefined): number | null {
  const a = server?.address();
  return a && typeof a === 'object' ? a.port : null;
}
