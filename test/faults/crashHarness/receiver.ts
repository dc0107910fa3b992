// The webhook endpoint the crash harness registers: a local HTTP server that answers 204 to every delivery and keeps
// which records it was told about (the envelope's recordId) and how many times each webhook-id came.
import http from 'node:http';

export interface Receiver {
  url: string;
  /** Records delivered at least once. */
  records: Set<string>;
  deliveries: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const records = new Set<string>();
  const self = { deliveries: 0 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += String(d)));
    req.on('end', () => {
      try {
        const body = JSON.parse(raw) as { data?: { recordId?: string } };
        if (body.data?.recordId) records.add(body.data.recordId);
        self.deliveries++;
      } catch {
        /* not a delivery */
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    records,
    get deliveries() {
      return self.deliveries;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
