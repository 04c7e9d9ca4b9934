import type { Frame, Page } from 'playwright-core';
import { waitUntil } from './wait.ts';

/**
 * Adds an iframe showing `path` to the page (a child frame of its main window), sized
 * `width`×`height` over the page's top-left corner, and resolves with its frame once the
 * frame's document has loaded.
 */
export async function addChildFrame(
  page: Page,
  path: string,
  name: string,
  size: { width: number; height: number } = { width: 900, height: 560 },
): Promise<Frame> {
  await page.evaluate(
    ({ path, name, size }) => {
      const iframe = document.createElement('iframe');
      iframe.name = name;
      iframe.title = name;
      iframe.src = path;
      Object.assign(iframe.style, {
        position: 'fixed',
        left: '0',
        top: '0',
        width: `${size.width}px`,
        height: `${size.height}px`,
        zIndex: '2000',
        border: '2px solid #888',
        background: 'white',
      });
      document.body.appendChild(iframe);
    },
    { path, name, size },
  );
  const frame = await waitUntil(
    async () => page.frame({ name }),
    (found) => found !== null,
    30_000,
  );
  if (!frame) throw new Error(`no frame ${name}`);
  await frame.waitForLoadState('load');
  return frame;
}

/** Answers the main window got for an action it posted to a frame (cw_ack / cw_error). */
export function postActionToFrame(
  page: Page,
  frameName: string,
  message: { id: string; action: string; payload: unknown },
): Promise<unknown> {
  return page.evaluate(
    ({ frameName, message }) =>
      new Promise((resolve) => {
        const target = (document.querySelector(`iframe[name="${frameName}"]`) as HTMLIFrameElement)
          .contentWindow!;
        const onMessage = (event: MessageEvent) => {
          const data = event.data as { type?: string; id?: string };
          if (event.source === target && data?.id === message.id) {
            window.removeEventListener('message', onMessage);
            resolve(data);
          }
        };
        window.addEventListener('message', onMessage);
        target.postMessage({ type: 'cw_action', ...message }, window.location.origin);
      }),
    { frameName, message },
  );
}
