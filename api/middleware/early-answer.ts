import type { Request, Response } from 'express';

/** How long a refused request's unread body is read and thrown away before the connection is cut (always, then). */
const LINGER_MS = 2_000;

/**
 * For an answer sent before the request's body was read (401/403 before an upload or an agent
 * message, a limit crossed mid-stream): the rest is never read into memory. Node discards what
 * still arrives; after LINGER_MS the connection is cut. Not closed at once: a client still sending
 * would get a reset that can destroy the answer before it reads it (the reason for nginx's lingering close).
 */
export function lingerAfterEarlyAnswer(req: Request, res: Response): void {
  if (req.complete) return;
  // flowing with no reader: what arrives is dropped, never buffered; and nothing unread is left to turn the close into a reset
  req.resume();
  // Node ends an answer to `Connection: close` with socket.destroySoon(): a destroy right after the
  // flush, with the body's rest unread, which is a reset that can reach the client before it reads
  // the answer. Without destroySoon Node half-closes instead (socket.end(): the answer, then FIN),
  // and the timer below cuts a client that keeps sending.
  if (req.socket) Object.assign(req.socket, { destroySoon: undefined });
  // the connection is not reused (its request's body was never read), so it can be cut whatever the client does next
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const socket = req.socket;
  res.once('finish', () => {
    // a client that neither stops sending nor closes is cut: a half-closed socket is not held for it
    setTimeout(() => socket?.destroy(), LINGER_MS).unref();
  });
}
