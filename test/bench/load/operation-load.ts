/**
 * Load generator for test/bench/operations.bench.ts, run as its own process: `count` operations
 * started by `POST <path>` (202 and an operation), `concurrency` at once, each followed on its event
 * stream (`GET /v1/operations/{id}/events`, Server-Sent Events) until the stream's `end` event, as a
 * client watching its operation would. Prints one JSON line: each operation's id, status and the
 * client-side milliseconds from sending the POST to reading `end`, and the whole run's seconds.
 *   node test/bench/load/operation-load.ts '{"port":8080,"path":"/v1/nodes/<id>/ping","token":"...","count":50,"concurrency":1}'
 */
import http from 'node:http';

type LoadSpec = { port: number; path: string; token: string; count: number; concurrency: number };
type Outcome = { id: string; status: string; ms: number };

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency * 2 });
const headers = { authorization: `Bearer ${spec.token}` };

function start(): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: '127.0.0.1', port: spec.port, path: spec.path, method: 'POST', headers: { ...headers, 'content-type': 'application/json' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          if (response.statusCode !== 202) return reject(new Error(`POST ${spec.path} answered ${response.statusCode}: ${body.slice(0, 300)}`));
          resolve((JSON.parse(body) as { data: { id: string } }).data.id);
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end('{}');
  });
}

/** Reads the operation's event stream until its `end` event; resolves with the status it names. */
function ended(id: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { agent, host: '127.0.0.1', port: spec.port, path: `/v1/operations/${id}/events`, headers: { ...headers, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`the event stream of ${id} answered ${response.statusCode}`));
        let buffer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          const at = buffer.indexOf('event: end\n');
          if (at === -1) return;
          const data = /^data: (.*)$/m.exec(buffer.slice(at));
          if (!data) return;
          resolve((JSON.parse(data[1]!) as { status: string }).status);
          response.destroy();
        });
        response.on('error', () => undefined);
        response.on('close', () => reject(new Error(`the event stream of ${id} closed before its end event`)));
      },
    );
    request.on('error', reject);
  });
}

const outcomes: Outcome[] = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: Math.min(spec.concurrency, spec.count) }, async () => {
    while (next < spec.count) {
      next += 1;
      const at = performance.now();
      const id = await start();
      const status = await ended(id);
      outcomes.push({ id, status, ms: performance.now() - at });
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
agent.destroy();
process.stdout.write(`${JSON.stringify({ seconds, outcomes })}\n`);
