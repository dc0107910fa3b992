// A Server-Sent Events client for the tests (what an EventSource does): parses `id`, `event`, `data`, `retry` and comments.
import http from 'node:http';

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  messages: SseMessage[];
  comments: string[];
  retry: number | null;
  /** Resolves once `count` messages have arrived (in all), or rejects after `timeoutMs`. */
  until(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** The client hangs up. */
  close(): void;
  /** The body when the answer was not a stream (a problem). */
  text(): string;
}

export function openSse(url: string, token: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...headers } }, (res) => {
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages: [],
        comments: [],
        retry: null,
        until: (count, timeoutMs = 10_000) =>
          new Promise((done, fail) => {
            const deadline = Date.now() + timeoutMs;
            const check = () => {
              if (client.messages.length >= count) return done(client.messages.slice());
              if (Date.now() > deadline) return fail(new Error(`only ${client.messages.length} of ${count} SSE messages arrived`));
              setTimeout(check, 20);
            };
            check();
          }),
        ended: new Promise((done) => res.on('close', () => done())),
        close: () => req.destroy(),
        text: () => raw,
      };
      let raw = '';
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = { id: null, event: 'message', data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) message.id = line.slice(4);
            else if (line.startsWith('event: ')) message.event = line.slice(7);
            else if (line.startsWith('retry: ')) client.retry = Number(line.slice(7));
            else if (line.startsWith('data: ')) {
              message.data += (hasData ? '\n' : '') + line.slice(6);
              hasData = true;
            }
          }
          if (hasData) client.messages.push(message);
        }
      });
      res.on('error', () => undefined);
      resolve(client);
    });
    req.on('error', reject);
  });
}
