// Server-Sent Events read with fetch (EventSource cannot send Authorization): parses the stream's fields, remembers
// the last id and reconnects after the server's `retry`, sending Last-Event-ID so nothing is missed.
import { authorization, refreshTokens } from './api.js';

export interface StreamMessage {
  event: string;
  data: string;
  id: string | null;
}

export interface StreamHandlers {
  message(message: StreamMessage): void;
  /** 'open', 'reconnecting' (with the wait) or 'closed' (gone for good: 403/404 or the session ended). */
  state(state: 'open' | 'reconnecting' | 'closed', detail?: string): void;
}

/** Feeds text chunks and calls `dispatch` for each complete event (a blank line ends one). */
export function sseParser(dispatch: (m: StreamMessage) => void, onRetry: (ms: number) => void, onId: (id: string) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) dispatch({ event: event || 'message', data: data.join('\n'), id });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) {
      id = value;
      onId(value);
    } else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };
  return (chunk: string): void => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const text = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      line(text);
    }
  };
}

/** Opens the stream and keeps it open until the returned function is called. */
export function openStream(path: string, handlers: StreamHandlers): () => void {
  const controller = new AbortController();
  let retryMs = 3000;
  let lastId: string | null = null;

  const connect = async (): Promise<void> => {
    while (!controller.signal.aborted) {
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream', ...authorization() };
        if (lastId !== null) headers['last-event-id'] = lastId;
        const res = await fetch(path, { headers, signal: controller.signal, cache: 'no-store' });
        if (res.status === 401 && (await refreshTokens())) continue;
        if (res.status === 401 || res.status === 403 || res.status === 404) {
          handlers.state('closed', `The live updates stopped (${res.status}).`);
          return;
        }
        if (res.status === 429) {
          // Every stream slot of the company is taken: try again later (Retry-After when the service says).
          const wait = Math.max(retryMs, Number(res.headers.get('retry-after') ?? 30) * 1000);
          handlers.state('reconnecting', `${Math.round(wait / 1000)} s`);
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        if (!res.ok || !res.body) throw new Error(`${res.status}`);
        handlers.state('open');
        const feed = sseParser(
          (message) => handlers.message(message),
          (ms) => (retryMs = ms),
          (id) => (lastId = id),
        );
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          feed(value);
        }
      } catch (err) {
        if (controller.signal.aborted) return;
        void err;
      }
      if (controller.signal.aborted) return;
      handlers.state('reconnecting', `${Math.round(retryMs / 1000)} s`);
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  };
  void connect();
  return () => controller.abort();
}
