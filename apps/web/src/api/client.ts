import { CODE_AUTH_FAILED, MSG_TOKEN_INVALID } from '@ct/domain';
import type { z } from 'zod';
import { navigateTo } from '../shared/navigation';
import { clearSessionStorage, readString, STORAGE_KEYS } from '../shared/storage';
import { messages } from '../i18n/firstScreen';

/** Every HTTP request gives up after this long (spec section 9). */
export const HTTP_TIMEOUT_MS = 300_000;

export type QueryValue = string | number | boolean | null | undefined;

export type RequestOptions<S extends z.ZodType | undefined = undefined> = {
  /** Query parameters; null and undefined values are left out. */
  params?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Ask every cache on the way to answer fresh. */
  noCache?: boolean;
  /** Overrides the 300000 ms default. */
  timeoutMs?: number;
  /** Validates the answer; the result is then typed by it. */
  schema?: S;
  signal?: AbortSignal;
};

type Result<S> = S extends z.ZodType ? z.infer<S> : unknown;

/** A non-2xx answer; `body` is the parsed JSON body when there was one. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** The server's reason for a refused call (`detail`, else `msg`, else the error's message). */
export function failureReason(error: unknown): string | null {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const { detail, msg } = error.body as { detail?: unknown; msg?: unknown };
    if (typeof detail === 'string' && detail) return detail;
    if (typeof msg === 'string' && msg) return msg;
  }
  return error instanceof Error && error.message ? error.message : null;
}

/**
 * A 2xx answer whose body does not match the call's schema: it never reaches the caller's
 * state. `issues` lists where the body differs (`path: message`).
 */
export class MalformedAnswerError extends Error {
  readonly path: string;
  readonly issues: string[];
  constructor(method: string, path: string, error: z.ZodError) {
    const issues = error.issues.map(
      (issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`,
    );
    super(`${messages.http.malformedAnswer} ${method} ${path}: ${issues.slice(0, 3).join('; ')}`, {
      cause: error,
    });
    this.name = 'MalformedAnswerError';
    this.path = path;
    this.issues = issues;
  }
}

const authFailureListeners = new Set<() => void>();

/** Stores holding session state in memory subscribe here to be reset on a 50002 answer. */
export function onAuthFailure(listener: () => void): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

function apiBase(): string {
  return (import.meta.env.VITE_API_BASE ?? '').replace(/\/$/, '');
}

export function buildUrl(path: string, params?: Record<string, QueryValue>): string {
  let url = `${apiBase()}${path}`;
  if (params) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value !== null && value !== undefined) query.append(key, String(value));
    }
    const text = query.toString();
    if (text) url += (url.includes('?') ? '&' : '?') + text;
  }
  return url;
}

/** The stored user's identity headers (spec section 6); every call sends them. */
export function identityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const userId = readString(STORAGE_KEYS.userId);
  const userName = readString(STORAGE_KEYS.userName);
  if (userId) headers['x-user-id'] = userId;
  if (userName) headers['x-user-name'] = userName;
  return headers;
}

function hasCode(body: unknown, code: number): boolean {
  return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === code;
}

/**
 * A text the server wrote (`msg`, `detail`, a refusal or success text inside a 200 answer)
 * in the chosen language when it is a known one; the server's own text otherwise.
 */
export function serverText(text: string): string {
  return text ? messages.http.serverText(text) : text;
}

function failureText(status: number, body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { msg, detail } = body as { msg?: unknown; detail?: unknown };
    if (typeof msg === 'string' && msg) return messages.http.serverText(msg);
    if (typeof detail === 'string' && detail) return messages.http.serverText(detail);
  }
  return `${messages.http.failedStatus}${status}`;
}

/** Token failure (spec section 8): forget the session, go to /login, fail the call. */
export function handleAuthFailure(): never {
  clearSessionStorage();
  for (const listener of authFailureListeners) listener();
  navigateTo('/login', { replace: true });
  throw new Error(MSG_TOKEN_INVALID);
}

async function request<S extends z.ZodType | undefined = undefined>(
  method: string,
  path: string,
  options: RequestOptions<S> = {},
): Promise<Result<S>> {
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const outer = options.signal;
  const forwardAbort = () => controller.abort();
  outer?.addEventListener('abort', forwardAbort);

  const headers: Record<string, string> = { Accept: 'application/json', ...identityHeaders() };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.noCache) {
    headers['Cache-Control'] = 'no-cache';
    headers['Pragma'] = 'no-cache';
  }

  let response: Response;
  let text: string;
  try {
    response = await fetch(buildUrl(path, options.params), {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
      ...(options.noCache ? { cache: 'no-store' as const } : {}),
    });
    text = await response.text();
  } catch (error) {
    if (timedOut) throw new Error(`${messages.http.timeout} (${timeoutMs} ms)`, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forwardAbort);
  }

  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }

  // Checked before the HTTP status: the server answers 50002 with 401, others may with 200.
  if (hasCode(body, CODE_AUTH_FAILED)) handleAuthFailure();

  if (!response.ok) throw new ApiError(response.status, body, failureText(response.status, body));

  if (options.schema) {
    const parsed = options.schema.safeParse(body);
    if (!parsed.success) throw new MalformedAnswerError(method, path, parsed.error);
    return parsed.data as Result<S>;
  }
  return body as Result<S>;
}

/** The one HTTP client of the web app. */
export const http = {
  get: <S extends z.ZodType | undefined = undefined>(path: string, options?: RequestOptions<S>) =>
    request<S>('GET', path, options),
  post: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: RequestOptions<S>,
  ) => request<S>('POST', path, { ...options, body }),
  put: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: RequestOptions<S>,
  ) => request<S>('PUT', path, { ...options, body }),
  patch: <S extends z.ZodType | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: RequestOptions<S>,
  ) => request<S>('PATCH', path, { ...options, body }),
  delete: <S extends z.ZodType | undefined = undefined>(
    path: string,
    options?: RequestOptions<S>,
  ) => request<S>('DELETE', path, options),
};
