import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Client } from './client.ts';
import { PANEL_URL } from './stack.ts';

/** An ad-hoc app of a test, listening: its server, and a new client of it at each call. */
export type ProbeApp = { server: Server; client: () => Client };

/** Serves a test's own express app on a free loopback port, with clients that come from the panel's origin. */
export function serveProbeApp(app: Express): Promise<ProbeApp> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({ server, client: () => new Client(url, PANEL_URL) });
    });
  });
}
