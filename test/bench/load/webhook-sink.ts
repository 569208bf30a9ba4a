/**
 * A webhook receiver in a process of its own (run by the webhook bench), so receiving does not
 * share an event loop with the workers or the direct POSTs it is compared with. It answers 200 to
 * every POST and tells its parent, over IPC, each request's path and the moment it was read in
 * full (epoch milliseconds with fractions: performance.timeOrigin + performance.now()), a few
 * milliseconds' worth at a time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type SinkMessage = { port: number } | { received: Array<{ path: string; at: number }> };

let pending: Array<{ path: string; at: number }> = [];
let flushing: NodeJS.Timeout | undefined;
const send = (message: SinkMessage) => process.send!(message);

const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    pending.push({ path: request.url ?? '/', at: performance.timeOrigin + performance.now() });
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    flushing ??= setTimeout(() => {
      send({ received: pending });
      pending = [];
      flushing = undefined;
    }, 2);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => send({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
