import {
  DEFAULT_AI_MODEL,
  DEFAULT_AI_PROVIDER,
  type AiProvider,
  type ApiSettings,
  type SaveApiSettingsRequest,
} from '@ct/domain';
import { create } from 'zustand';
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

function stored(): Pick<SettingsState, 'provider' | 'model' | 'baseURL'> {
  return {
    provider: readString(STORAGE_KEYS.aiProvider) || DEFAULT_AI_PROVIDER,
    model: readString(STORAGE_KEYS.aiModel) || DEFAULT_AI_MODEL,
    baseURL: readString(STORAGE_KEYS.aiBaseURL) ?? '',
  };
}

export const useAssistantSettings = create<SettingsState>(() => ({
  providers: null,
  ...stored(),
  apiKey: '',
  loaded: false,
  modalOpen: false,
}));

/** Model, base URL and provider persist locally (spec section 9). */
function remember(settings: ApiSettings): void {
  writeString(STORAGE_KEYS.aiProvider, settings.provider);
  writeString(STORAGE_KEYS.aiModel, settings.model);
  writeString(STORAGE_KEYS.aiBaseURL, settings.baseURL);
  useAssistantSettings.setState({ ...settings, loaded: true });
}

let loading: Promise<void> | null = null;

/** Loads the providers and the saved settings once; concurrent callers share the load. */
export function loadAssistantSettings(): Promise<void> {
  if (useAssistantSettings.getState().loaded && useAssistantSettings.getState().providers) {
    return Promise.resolve();
  }
  loading ??= Promise.all([
    fetchProviders().then((providers) => useAssistantSettings.setState({ providers })),
    fetchSettings().then(remember),
  ])
    .then(() => undefined)
    .finally(() => {
      loading = null;
    });
  return loading;
}

export async function saveAssistantSettings(body: SaveApiSettingsRequest): Promise<void> {
  remember(await saveSettings(body));
}

export function openSettingsModal(): void {
  useAssistantSettings.setState({ modalOpen: true });
}

export function closeSettingsModal(): void {
  useAssistantSettings.setState({ modalOpen: false });
}

/** Whether the chosen provider needs a key: its `requires_key`, by name until loaded. */
export function providerNeedsKey(state: Pick<SettingsState, 'providers' | 'provider'>): boolean {
  const known = state.providers?.find((p) => p.value === state.provider);
  return known ? known.requires_key : needsApiKey(state.provider);
}

/** Forgets the loaded settings (tests; a new session loads them again). */
export function resetAssistantSettings(): void {
  loading = null;
  useAssistantSettings.setState({
    providers: null,
    ...stored(),
    apiKey: '',
    loaded: false,
    modalOpen: false,
  });
}
