import { feedLoadStatusSchema, type FeedLoadRequest, type FeedLoadStatus } from '@ct/domain';
import { ApiError, http } from '../../api/client';

/** The server's load control (docs/api.md); null when the server has it off (404). */
export async function fetchLoadStatus(): Promise<FeedLoadStatus | null> {
  try {
    return await http.get('/api/market/load', { schema: feedLoadStatusSchema, noCache: true });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function startLoad(request: FeedLoadRequest): Promise<FeedLoadStatus> {
  return http.post('/api/market/load', request, { schema: feedLoadStatusSchema });
}

export async function stopLoad(): Promise<void> {
  await http.delete('/api/market/load');
}
