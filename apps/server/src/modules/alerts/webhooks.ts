import { toEpochSec } from '@ct/domain';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { WebhookAttempt } from '@ct/domain';
import type { AlertSettings } from './settings.ts';
import { WebhookRefusedError, resolveWebhookTarget, type WebhookAllow } from './ssrf.ts';

/** `X-Signature` of a body: `sha256=<hex HMAC-SHA256 of the raw body with the user's secret>`. */
export function signatureOf(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** One call's outcome: the HTTP status, or the error that left none; `retry` if worth another. */
export type CallOutcome = { status: number | null; error: string | null; retry: boolean };

/**
 * One POST of the body: the host resolved and checked now (ssrf.ts), the connection made to
 * that address, no redirect followed (a 3xx is an answer like any other), at most
 * `timeoutMs` from start to the end of the answer, and at most `maxBytes` of it read.
 */
export async function callWebhook(
  urlText: string,
  body: string,
  signature: string,
  options: { allow: WebhookAllow; timeoutMs: number; maxBytes: number },
): Promise<CallOutcome> {
  let target;
  try {
    target = await resolveWebhookTarget(urlText, options.allow);
  } catch (error) {
    const message = error instanceof WebhookRefusedError ? error.message : 'resolve failed';
    return { status: null, error: message, retry: false };
  }
  const { url, address, family } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<CallOutcome>((resolve) => {
    let settled = false;
    const done = (outcome: CallOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'ChartTerminal-Alerts/1',
          'x-signature': signature,
        },
        // the address checked above, whatever the name resolves to now
        lookup: (_host, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) {
            (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
              { address, family },
            ]);
          } else {
            callback(null, address, family);
          }
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.maxBytes) {
            response.destroy();
            done({ status, error: 'answer too large (cut)', retry: false });
          }
        });
        response.on('end', () =>
          done({
            status,
            error: status >= 300 && status < 400 ? 'redirect not followed' : null,
            retry: status >= 500 || status === 408 || status === 429,
          }),
        );
        response.on('error', () => done({ status, error: 'answer broken', retry: true }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      done({ status: null, error: `no answer within ${options.timeoutMs} ms`, retry: true });
    }, options.timeoutMs);
    request.on('error', (error) => done({ status: null, error: error.message, retry: true }));
    request.end(body);
  });
}

/** A 2xx answer. */
export const delivered = (outcome: CallOutcome) =>
  outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/**
 * Delivers a body with retries: the first call at once, then after `backoffMs`, twice that,
 * and so on while the next call would start within `retryMs` of the first. Every attempt
 * is handed to `record` (the alert log shows each); resolves with the final state.
 */
export async function deliverWithRetries(
  call: () => Promise<CallOutcome>,
  record: (attempt: WebhookAttempt, final: 'pending' | 'delivered' | 'failed') => Promise<void>,
  settings: Pick<AlertSettings, 'webhookRetryMs' | 'webhookBackoffMs'>,
  clock: { now: () => number; sleep: (ms: number) => Promise<void> },
): Promise<'delivered' | 'failed'> {
  const started = clock.now();
  let delay = settings.webhookBackoffMs;
  for (;;) {
    const outcome = await call();
    const attempt: WebhookAttempt = {
      at: toEpochSec(clock.now()),
      status: outcome.status,
      error: outcome.error,
    };
    if (delivered(outcome)) {
      await record(attempt, 'delivered');
      return 'delivered';
    }
    const again = outcome.retry && clock.now() + delay - started <= settings.webhookRetryMs;
    await record(attempt, again ? 'pending' : 'failed');
    if (!again) return 'failed';
    await clock.sleep(delay);
    delay *= 2;
  }
}
