import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Another site's page that frames ours: a tiny HTTP server on its own port of 127.0.0.1
 * (another origin than the product's, and, through `localhost`, a third one). GET
 * `/embed?src=<url>` answers a page with one iframe named `embedded` showing `src`, whose
 * script speaks the frame protocol as an embedder would: it records every message of the
 * frame (`window.__heard`) and answers the frame's `cw_state_request` with a dark theme.
 */
export type Embedder = { origin: string; close(): Promise<void> };

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function embedPage(src: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Partner portal</title></head>
  <body style="margin:0;font-family:sans-serif;background:#f4f4f4">
    <h1 style="font-size:18px;margin:12px 16px">Partner portal</h1>
    <iframe name="embedded" title="Chart" src="${escapeAttribute(src)}"
      style="width:1000px;height:620px;border:1px solid #bbb;margin:0 16px;background:#fff"></iframe>
    <script>
      window.__heard = [];
      window.addEventListener('message', (event) => {
        const frame = document.querySelector('iframe').contentWindow;
        if (event.source !== frame) return;
        window.__heard.push({ origin: event.origin, data: event.data });
        const data = event.data || {};
        if (data.type === 'cw_state_request') {
          frame.postMessage(
            { type: 'cw_sync_all_state', requestId: data.requestId, state: { theme: 'dark' } },
            event.origin,
          );
        }
      });
    </script>
  </body>
</html>`;
}

export function startEmbedder(): Promise<Embedder> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://embedder');
    const src = url.searchParams.get('src');
    if (url.pathname !== '/embed' || !src || !/^https?:\/\//.test(src)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(embedPage(src));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const origin = `http://127.0.0.1:${port}`;
      resolve({
        origin,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
