import {
  toEpochSec,
  DEFAULT_AI_MODEL,
  DEFAULT_AI_PROVIDER,
  isMaskedApiKey,
  maskApiKey,
  normalizeBaseUrl,
  saveApiSettingsRequestSchema,
  type AiProvider,
  type ApiSettings,
} from '@ct/domain';
import type { AiSettingsRow } from '../../db/schema.ts';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../auth/rate-limit.ts';
import { parseAiInput, UnprocessableError } from './errors.ts';
import { SealedSecretError, type KeyBox } from './key-box.ts';
import type { ProviderCatalogue } from './providers.ts';
import { findAiSettings, upsertAiSettings } from './store.ts';

/** What a chat needs from the stored settings; `apiKey` is the plain key (never answered). */
export type StoredAiSettings = {
  provider: string;
  model: string;
  apiKey: string;
};

export type SettingsService = {
  /** `GET /api/settings`: the saved settings (defaults when none) with the key masked. */
  get(userId: number): Promise<ApiSettings>;
  /** `POST /api/settings`: validates, keeps a masked key as it was, stores, answers as `get`. */
  save(userId: number, body: unknown): Promise<ApiSettings>;
  /** The settings a chat runs with, the key in clear; defaults and no key when none. */
  forChat(userId: number): Promise<StoredAiSettings>;
};

export type SettingsServiceDeps = {
  db: Db;
  now: Clock;
  providers: ProviderCatalogue;
  keys: KeyBox;
  /** Told when a stored key cannot be opened (the server key changed); never given the key. */
  warn: (message: string) => void;
};

const associatedData = (userId: number) => `ai_settings:user:${userId}`;

/** Unknown providers and endpoints outside the allow-list are refused with a clear 422. */
export function allowedProvider(
  providers: ProviderCatalogue,
  value: string,
  baseUrl: string,
): AiProvider {
  const provider = providers.find(value);
  if (!provider) throw new UnprocessableError(`Unknown service provider: ${value}`);
  if (normalizeBaseUrl(baseUrl) !== provider.base_url) {
    throw new UnprocessableError(
      `API endpoint not allowed: ${baseUrl}. The endpoint of ${provider.label} is ${provider.base_url}`,
    );
  }
  return provider;
}

export function createSettingsService(deps: SettingsServiceDeps): SettingsService {
  const { db, now, providers, keys, warn } = deps;

  function storedKey(row: AiSettingsRow | null): string {
    if (!row?.apiKeyEnc) return '';
    try {
      return keys.open(row.apiKeyEnc, associatedData(row.userId));
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      warn(`the stored API key of user ${row.userId} cannot be opened with this server key`);
      return '';
    }
  }

  function view(row: AiSettingsRow | null): ApiSettings {
    const providerValue = row?.provider ?? DEFAULT_AI_PROVIDER;
    // the provider's current endpoint: what the server calls, and what a POST must send back
    const provider = providers.find(providerValue);
    return {
      apiKey: maskApiKey(storedKey(row)),
      baseURL: provider?.base_url ?? row?.baseUrl ?? '',
      model: row?.model ?? DEFAULT_AI_MODEL,
      provider: providerValue,
    };
  }

  return {
    async get(userId) {
      return view(await findAiSettings(db, userId));
    },

    async save(userId, body) {
      const input = parseAiInput(saveApiSettingsRequestSchema, body);
      const provider = allowedProvider(providers, input.provider, input.baseURL);
      const existing = await findAiSettings(db, userId);
      let apiKeyEnc: string | null;
      if (input.apiKey === '') {
        apiKeyEnc = null;
      } else if (isMaskedApiKey(input.apiKey)) {
        const current = storedKey(existing);
        if (current === '' || maskApiKey(current) !== input.apiKey) {
          throw new UnprocessableError(
            'apiKey: this is a masked key that does not match the saved one; enter the full key',
          );
        }
        apiKeyEnc = existing?.apiKeyEnc ?? null;
      } else {
        apiKeyEnc = keys.seal(input.apiKey, associatedData(userId));
      }
      const saved = await upsertAiSettings(db, {
        userId,
        provider: provider.value,
        baseUrl: provider.base_url,
        model: input.model,
        apiKeyEnc,
        updatedAt: toEpochSec(now()),
      });
      return view(saved);
    },

    async forChat(userId) {
      const row = await findAiSettings(db, userId);
      return {
        provider: row?.provider ?? DEFAULT_AI_PROVIDER,
        model: row?.model ?? DEFAULT_AI_MODEL,
        apiKey: storedKey(row),
      };
    },
  };
}
