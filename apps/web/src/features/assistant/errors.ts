import { ApiError } from '../../api/client';

/** The server's reason for a refused call (`detail`, else `msg`, else the error's message). */
export function failureDetail(error: unknown): string | null {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const { detail, msg } = error.body as { detail?: unknown; msg?: unknown };
    if (typeof detail === 'string' && detail) return detail;
    if (typeof msg === 'string' && msg) return msg;
  }
  return error instanceof Error && error.message ? error.message : null;
}
