import fs from 'node:fs';
import {
  aiModelSchema,
  aiProviderSchema,
  normalizeBaseUrl,
  type AiModel,
  type AiProvider,
} from '@ct/domain';
import OpenAI from 'openai';
import { z } from 'zod';
import type { Clock } from '../auth/rate-limit.ts';
import type { AiConfig } from './config.ts';

/** The built-in providers: the spec's four, and the local model server's defaults. */
const providersFileSchema = z.object({
  providers: z.array(aiProviderSchema),
  ollama: z.object({
    label: z.string(),
    value: z.string(),
    requires_key: z.boolean(),
    models: z.array(aiModelSchema),
  }),
});

const BUILT_IN = providersFileSchema.parse(
  JSON.parse(fs.readFileSync(new URL('./providers.json', import.meta.url), 'utf8')),
);

/** How long the local server's model list is kept before it is asked again. */
const MODELS_TTL_MS = 30_000;
/** How long the provider list waits for the local server's model list. */
const MODELS_TIMEOUT_MS = 2000;

/** Asks an OpenAI-compatible server for its models (`GET {base}/models`). */
export type ModelLister = (baseUrl: string) => Promise<AiModel[]>;

export const listModelsOverHttp: ModelLister = async (baseUrl) => {
  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey: 'ollama',
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: MODELS_TIMEOUT_MS,
    logLevel: 'off',
  });
  const models: AiModel[] = [];
  for await (const model of client.models.list()) {
    models.push({ label: model.id, value: model.id, description: 'Local model' });
  }
  return models;
};

/**
 * The providers users may choose, and the only endpoints the server ever calls: the
 * built-in ones, OLLAMA_BASE_URL and the administrator's AI_EXTRA_PROVIDERS (which replace
 * a built-in provider of the same `value`).
 */
export class ProviderCatalogue {
  private readonly providers: AiProvider[];
  private readonly ollamaValue = BUILT_IN.ollama.value;
  /** False when the administrator replaced the local provider with a fixed entry. */
  private readonly askLocalModels: boolean;
  private cachedModels: { at: number; models: AiModel[] | null } | null = null;
  private pending: Promise<AiModel[] | null> | null = null;

  constructor(
    config: AiConfig,
    private readonly now: Clock,
    private readonly listModels: ModelLister = listModelsOverHttp,
  ) {
    const ollama: AiProvider = {
      label: BUILT_IN.ollama.label,
      value: BUILT_IN.ollama.value,
      base_url: normalizeBaseUrl(config.ollamaBaseUrl),
      models: BUILT_IN.ollama.models,
      requires_key: BUILT_IN.ollama.requires_key,
    };
    const all = [...BUILT_IN.providers, ollama];
    this.askLocalModels = !config.extraProviders.some((p) => p.value === ollama.value);
    for (const extra of config.extraProviders) {
      const index = all.findIndex((p) => p.value === extra.value);
      if (index === -1) all.push(extra);
      else all[index] = extra;
    }
    this.providers = all.map((p) => ({ ...p, base_url: normalizeBaseUrl(p.base_url) }));
  }

  /** The provider with this `value`, or null. */
  find(value: string): AiProvider | null {
    return this.providers.find((p) => p.value === value) ?? null;
  }

  /** The provider list with the local server's own models when it answers. */
  async list(): Promise<AiProvider[]> {
    const models = await this.localModels();
    return this.providers.map((p) =>
      p.value === this.ollamaValue && models && models.length > 0 ? { ...p, models } : p,
    );
  }

  private async localModels(): Promise<AiModel[] | null> {
    const cached = this.cachedModels;
    if (cached && this.now() - cached.at < MODELS_TTL_MS) return cached.models;
    const ollama = this.find(this.ollamaValue);
    if (!ollama || !this.askLocalModels) return null;
    this.pending ??= this.listModels(ollama.base_url)
      .catch(() => null)
      .then((models) => {
        this.cachedModels = { at: this.now(), models };
        this.pending = null;
        return models;
      });
    return this.pending;
  }
}
