/**
 * The floor of the API benches: a bare Express 5 JSON route in its own process, nothing else
 * (no logging, no middleware), listening on the port given as the first argument.
 *   node test/bench/load/bare-express.ts 8080
 */
import express from 'express';

const app = express();
app.get('/x', (_req, res) => {
  res.json({ ok: true });
});
const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write('listening\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
