import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/types.ts';
import type { Clock } from '../auth/rate-limit.ts';
import { createChatService, type ChatService } from './chat-service.ts';
import { DEFAULT_AI_CONFIG, type AiConfig } from './config.ts';
import { KeyBox } from './key-box.ts';
import { ProviderCatalogue, type ModelLister } from './providers.ts';
import { aiRoutes } from './routes.ts';
import { createSettingsService, type SettingsService } from './settings-service.ts';

/** The AI assistant's parts tests reach through the app. */
export type AiModule = {
  providers: ProviderCatalogue;
  settings: SettingsService;
  chat: ChatService;
};

export type AiModuleOptions = {
  db: Db;
  now: Clock;
  /** Where the key file is made when no encryption key is configured. */
  dataDir: string;
  config?: AiConfig;
  listModels?: ModelLister;
};

/** Providers, per-user API settings and the streaming chat relay. */
export function registerAi(app: FastifyInstance, options: AiModuleOptions): AiModule {
  const config = options.config ?? DEFAULT_AI_CONFIG;
  const providers = new ProviderCatalogue(config, options.now, options.listModels);
  const keys = new KeyBox({ secret: config.encryptionSecret, dataDir: options.dataDir });
  const settings = createSettingsService({
    db: options.db,
    now: options.now,
    providers,
    keys,
    warn: (message) => app.log.warn(message),
  });
  const chat = createChatService({
    config,
    now: options.now,
    providers,
    settings,
    warn: (details, message) => app.log.warn(details, message),
  });
  aiRoutes(app, { providers, settings, chat });
  return { providers, settings, chat };
}
