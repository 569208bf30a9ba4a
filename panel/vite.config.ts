import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const panelRoot = fileURLToPath(new URL('.', import.meta.url));

// The panel is served by the API at / (same origin: the session cookies and the CSRF check work as
// designed), so assets are absolute under /assets/ and nothing is fetched from outside.
export default defineConfig({
  root: panelRoot,
  base: '/',
  plugins: [react()],
  resolve: {
    // the SDK is used from its source: one build, and the panel always speaks the document of this commit
    alias: { '@berth/sdk': fileURLToPath(new URL('../sdk/typescript/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // every page is its own chunk; the first page's JavaScript stays small (see test/bench/panel.bench.ts)
    chunkSizeWarningLimit: 400,
  },
  logLevel: 'warn',
});
