import {
  DEFAULT_AI_MODEL,
  DEFAULT_AI_PROVIDER,
  type AiProvider,
  type ApiSettings,
  type SaveApiSettingsRequest,
} from '@ct/domain';
import { queryOptions } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import { queryClient } from '../../shared/queryClient';
import { readString, STORAGE_KEYS, writeString } from '../../shared/storage';
import { fetchProviders, fetchSettings, saveSettings } from './api';
import { needsApiKey } from './logic';

type SettingsState = {
  /** The providers the server offers; null until loaded. */
  providers: AiProvider[] | null;
  /** The chat settings in use: the server's once loaded, the stored ones until then. */
  provider: string;
  model: string;
  baseURL: string;
  /** The saved key as the server shows it (masked), '' when none is saved. */
  apiKey: string;
  /** True once the server's settings arrived. */
  loaded: boolean;
  /** The API Settings modal. */
  modalOpen: boolean;
};

/*
 * The providers (GET /api/ai/providers) and the user's saved settings (GET /api/settings)
 * are server state: two queries of the one TanStack Query cache. Only the modal's state is
 * the client's own.
 */

/** The query keys of the assistant's server state. */
export const assistantKeys = {
  providers: ['ai', 'providers'] as const,
  settings: ['settings'] as const,
};

/** Model, base URL and provider persist locally (spec section 9). */
function remember(settings: ApiSettings): ApiSettings {
  writeString(STORAGE_KEYS.aiProvider, settings.provider);
  writeString(STORAGE_KEYS.aiModel, settings.model);
  writeString(STORAGE_KEYS.aiBaseURL, settings.baseURL);
  return settings;
}

const providersQuery = queryOptions({
  queryKey: assistantKeys.providers,
  queryFn: fetchProviders,
});

const settingsQuery = queryOptions({
  queryKey: assistantKeys.settings,
  queryFn: async () => remember(await fetchSettings()),
});

const useSettingsUi = create<{ modalOpen: boolean }>(() => ({ modalOpen: false }));

function stored(): Pick<SettingsState, 'provider' | 'model' | 'baseURL'> {
  return {
    provider: readString(STORAGE_KEYS.aiProvider) || DEFAULT_AI_PROVIDER,
    model: readString(STORAGE_KEYS.aiModel) || DEFAULT_AI_MODEL,
    baseURL: readString(STORAGE_KEYS.aiBaseURL) ?? '',
  };
}

function readSettings(): SettingsState {
  const saved = queryClient.getQueryData(settingsQuery.queryKey);
  return {
    providers: queryClient.getQueryData(providersQuery.queryKey) ?? null,
    ...(saved
      ? { provider: saved.provider, model: saved.model, baseURL: saved.baseURL }
      : stored()),
    apiKey: saved?.apiKey ?? '',
    loaded: saved !== undefined,
    modalOpen: useSettingsUi.getState().modalOpen,
  };
}

function subscribeSettings(listener: () => void): () => void {
  const stopCache = queryClient.getQueryCache().subscribe(listener);
  const stopUi = useSettingsUi.subscribe(listener);
  return () => {
    stopCache();
    stopUi();
  };
}

/**
 * The assistant's settings as one state read by selector: the cached providers and saved
 * settings (the stored ones until they arrive) and the modal. `getState` reads the same
 * outside React.
 */
export const useAssistantSettings = Object.assign(
  function useAssistantSettings<T>(selector: (state: SettingsState) => T): T {
    return useSyncExternalStore(subscribeSettings, () => selector(readSettings()));
  },
  { getState: readSettings },
);

/** Loads the providers and the saved settings once; concurrent callers share the load. */
export async function loadAssistantSettings(): Promise<void> {
  await Promise.all([
    queryClient.ensureQueryData(providersQuery),
    queryClient.ensureQueryData(settingsQuery),
  ]);
}

/** Saves the settings; the server's answer is the settings in use. */
export async function saveAssistantSettings(body: SaveApiSettingsRequest): Promise<void> {
  queryClient.setQueryData(settingsQuery.queryKey, remember(await saveSettings(body)));
}

export function openSettingsModal(): void {
  useSettingsUi.setState({ modalOpen: true });
}

export function closeSettingsModal(): void {
  useSettingsUi.setState({ modalOpen: false });
}

/** Whether the chosen provider needs a key: its `requires_key`, by name until loaded. */
export function providerNeedsKey(state: Pick<SettingsState, 'providers' | 'provider'>): boolean {
  const known = state.providers?.find((p) => p.value === state.provider);
  return known ? known.requires_key : needsApiKey(state.provider);
}

/** Forgets the loaded settings (tests; a new session loads them again). */
export function resetAssistantSettings(): void {
  queryClient.removeQueries({ queryKey: assistantKeys.providers });
  queryClient.removeQueries({ queryKey: assistantKeys.settings });
  useSettingsUi.setState({ modalOpen: false });
}
