/**
 * A small HTTP load generator, run as its own process by the benches (so the measured server and
 * the process driving it do not share an event loop): `concurrency` requests in flight over
 * keep-alive connections for `seconds`, after a warm-up of `warmupSeconds`; prints one JSON line
 * with the completed requests per second, the statuses and the X-Cache values seen.
 *   node test/bench/load/http-load.ts '{"port":8080,"host":"site.test","path":"/","seconds":10,"concurrency":16}'
 */
import http from 'node:http';

type LoadSpec = { port: number; host: string; path: string; headers?: Record<string, string>; seconds: number; warmupSeconds?: number; concurrency: number };

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });

function once(): Promise<{ status: number; cache: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ agent, host: '127.0.0.1', port: spec.port, path: spec.path, headers: { ...spec.headers, host: spec.host } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, cache: String(response.headers['x-cache'] ?? '-') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

async function run(seconds: number, tally: boolean) {
  const statuses: Record<string, number> = {};
  const cache: Record<string, number> = {};
  let completed = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: spec.concurrency }, async () => {
      while (performance.now() < deadline) {
        try {
          const answer = await once();
          completed += 1;
          if (tally) {
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
            cache[answer.cache] = (cache[answer.cache] ?? 0) + 1;
          }
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { requests: completed, errors, seconds: elapsed, rps: completed / elapsed, statuses, cache };
}

await run(spec.warmupSeconds ?? 1, false);
const result = await run(spec.seconds, true);
agent.destroy();
process.stdout.write(`${JSON.stringify(result)}\n`);
