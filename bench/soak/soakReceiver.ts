// The soak's webhook receiver on loopback: answers 500 to the first attempt of about a fifth of the deliveries (by
// webhook-id), 204 otherwise, so the service's retries are exercised and every delivery still lands in the end.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceiverFigures {
  attempts: number;
  refused: number;
  delivered: number;
  /** Deliveries refused once and never delivered since (should drain to 0 once retries ran). */
  undelivered: number;
}

export interface SoakReceiver {
  url: string;
  figures(): ReceiverFigures;
  close(): Promise<void>;
}

export async function startSoakReceiver(failShare = 0.2): Promise<SoakReceiver> {
  const refusedIds = new Set<string>();
  const deliveredIds = new Set<string>();
  let attempts = 0;
  let refused = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      attempts++;
      const id = String(req.headers['webhook-id'] ?? '');
      if (!refusedIds.has(id) && !deliveredIds.has(id) && Math.random() < failShare) {
        refusedIds.add(id);
        refused++;
        res.writeHead(500).end();
        return;
      }
      deliveredIds.add(id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    figures: () => ({
      attempts,
      refused,
      delivered: deliveredIds.size,
      undelivered: [...refusedIds].filter((id) => !deliveredIds.has(id)).length,
    }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
