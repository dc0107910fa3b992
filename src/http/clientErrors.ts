// Requests Node's HTTP parser refuses before Koa sees them (a request line or headers over the limit, a raw
// space or non-ASCII byte in the URL, a broken request): answered as problem+json like every other error.
import type { Duplex } from 'node:stream';

const CLIENT_ERRORS: Record<string, { status: number; code: string; title: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'request-header-fields-too-large',
    title: 'Request Header Fields Too Large',
    detail: 'The request line or headers are larger than the server accepts',
  },
  HPE_REQUEST_TIMEOUT: { status: 408, code: 'request-timeout', title: 'Request Timeout', detail: 'The request was not received in time' },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request-timeout',
    title: 'Request Timeout',
    detail: 'The request was not received in time',
  },
};
const BAD_REQUEST = { status: 400, code: 'bad-request', title: 'Bad Request', detail: 'The request is not valid HTTP/1.1' };

/** Handler for `http.Server`'s 'clientError' event: a problem+json answer, then the connection closes. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // Nothing can be answered on a connection the client already reset.
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const known = err.code !== undefined && Object.hasOwn(CLIENT_ERRORS, err.code) ? CLIENT_ERRORS[err.code] : undefined;
  const { status, code, title, detail } = known ?? BAD_REQUEST;
  const body = JSON.stringify({ type: `/problems/${code}`, title, status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
