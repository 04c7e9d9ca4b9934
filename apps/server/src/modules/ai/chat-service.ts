import { chatRequestSchema, chatSizeProblem, type AiProvider, type ChatEvent } from '@ct/domain';
import OpenAI, { APIError, APIUserAbortError } from 'openai';
import { RateLimitedError } from '../../http/errors.ts';
import type { Clock } from '../auth/rate-limit.ts';
import type { RateLimitStore } from '../auth/rate-limit-store.ts';
import { apiErrorEvent, errorEvent, stoppedEvent, type StopReason } from './chat-errors.ts';
import type { AiConfig } from './config.ts';
import { historyForProvider, systemMessage } from './context.ts';
import { parseAiInput, TooLargeError, UnprocessableError } from './errors.ts';
import type { ProviderCatalogue } from './providers.ts';
import type { SettingsService } from './settings-service.ts';

/** The spec's text, shown when a chat is sent without a key (section 5). */
export const MSG_NO_API_KEY = 'Please set OpenAI API Key first';

/** A checked chat, ready to stream: the endpoint is an allowed one, the key is the user's. */
export type PreparedChat = {
  provider: AiProvider;
  model: string;
  apiKey: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
};

export type ChatService = {
  /**
   * Validates a chat request (422, 413), counts it against the user's rate (429) and
   * resolves provider, model and key from the request and the saved settings.
   */
  prepare(userId: number, body: unknown): Promise<PreparedChat>;
  /**
   * Streams the answer into `send`: reasoning and content as they arrive, then `done`, or one
   * `error` event. Never throws. `signal` aborts the upstream request (the browser went away).
   * An answer that takes longer than the total time limit, or passes the size limit, is
   * aborted upstream and ends with a `timeout` or `too_long` error after what was sent.
   */
  stream(
    chat: PreparedChat,
    send: (event: ChatEvent) => void,
    signal: AbortSignal,
    limits?: AnswerLimits,
  ): Promise<void>;
};

/** The bounds of one answer; the chat's settings when absent. */
export type AnswerLimits = {
  /** The longest the whole answer may take (AI_ANSWER_TIMEOUT_MS for a chat). */
  totalTimeoutMs?: number;
  /** The most characters of reasoning and content together (AI_ANSWER_MAX_CHARS). */
  maxChars?: number;
};

export type ChatServiceDeps = {
  config: AiConfig;
  now: Clock;
  /** Where the chats per user are counted: in memory, or shared by the API nodes (Redis). */
  rateStore: RateLimitStore;
  providers: ProviderCatalogue;
  settings: SettingsService;
  /** Failures worth a log line; never given the key. */
  warn: (details: Record<string, unknown>, message: string) => void;
};

/** The first `room` characters of `text`, never ending inside a surrogate pair. */
function head(text: string, room: number): string {
  if (text.length <= room) return text;
  const code = text.charCodeAt(room - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? room - 1 : room);
}

/** Reasoning text of a delta: `reasoning_content` (DeepSeek, Qwen) or `reasoning` (Ollama). */
function reasoningOf(delta: Record<string, unknown>): string {
  if (typeof delta.reasoning_content === 'string') return delta.reasoning_content;
  if (typeof delta.reasoning === 'string') return delta.reasoning;
  return '';
}

export function createChatService(deps: ChatServiceDeps): ChatService {
  const { config, providers, settings, rateStore } = deps;
  const { limit, windowMs } = config.chatRate;

  /** Milliseconds until the user's window holds fewer than `limit` chats; 0 when it does. */
  async function blockedForMs(key: string): Promise<number> {
    const now = deps.now();
    const list = await rateStore.events(key, now, windowMs);
    if (list.length < limit) return 0;
    const oldestThatCounts = list[list.length - limit] ?? now;
    return Math.max(1, oldestThatCounts + windowMs - now);
  }

  return {
    async prepare(userId, body) {
      const request = parseAiInput(chatRequestSchema, body);
      const tooLarge = chatSizeProblem(request);
      if (tooLarge) throw new TooLargeError(tooLarge);

      const key = `chat:user:${userId}`;
      const blockedMs = await blockedForMs(key);
      if (blockedMs > 0) {
        const wait = Math.ceil(blockedMs / 1000);
        throw new RateLimitedError(
          `Too many chat messages. Please try again in ${wait} seconds.`,
          wait,
        );
      }

      const saved = await settings.forChat(userId);
      const providerValue = request.provider ?? saved.provider;
      const provider = providers.find(providerValue);
      if (!provider) throw new UnprocessableError(`Unknown service provider: ${providerValue}`);
      // a saved key goes only to the provider it was saved for
      const apiKey = providerValue === saved.provider ? saved.apiKey : '';
      if (provider.requires_key && apiKey === '') throw new UnprocessableError(MSG_NO_API_KEY);
      const model =
        request.model ??
        (providerValue === saved.provider ? saved.model : provider.models[0]?.value);
      if (!model) throw new UnprocessableError('Please select a model');

      // the window keeps `limit` chats at most: all the check above ever reads
      await rateStore.hit(key, deps.now(), windowMs, limit);
      return {
        provider,
        model,
        // local servers take any non-empty key
        apiKey: apiKey === '' ? provider.value : apiKey,
        messages: [
          { role: 'system', content: systemMessage(request.context) },
          ...historyForProvider(request.messages),
        ],
      };
    },

    async stream(chat, send, signal, limits = {}) {
      const totalMs = limits.totalTimeoutMs ?? config.answerTimeoutMs;
      const maxChars = limits.maxChars ?? config.answerMaxChars;
      const upstream = new AbortController();
      // set from timers and the client's signal, read after the library returns or throws
      const state: { stopped: StopReason | null } = { stopped: null };
      const stop = (reason: StopReason) => {
        state.stopped ??= reason;
        upstream.abort();
      };
      const onClientGone = () => stop('client');
      if (signal.aborted) return;
      signal.addEventListener('abort', onClientGone, { once: true });
      let timer = setTimeout(() => stop('first-token'), config.firstTokenTimeoutMs);
      // the whole answer's bound: a stream that trickles a piece at a time still ends
      const totalTimer = setTimeout(() => stop('total'), totalMs);
      const rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => stop('idle'), config.idleTimeoutMs);
      };

      const client = new OpenAI({
        apiKey: chat.apiKey,
        baseURL: chat.provider.base_url,
        organization: null,
        project: null,
        webhookSecret: null,
        // a retry would double the wait behind a spinner; the user can send again
        maxRetries: 0,
        // our own first-token timer is the limit; the library's is only a backstop
        timeout: config.firstTokenTimeoutMs + 5000,
        logLevel: 'off',
      });

      let finishReason: string | null | undefined;
      let sawToken = false;
      // characters sent so far: nothing past `maxChars` is sent, or kept by anyone
      let used = 0;
      /** The part of `text` within the size limit; past it the stream stops. */
      const within = (text: string): string => {
        const kept = head(text, maxChars - used);
        used += kept.length;
        if (kept.length < text.length) stop('too-long');
        return kept;
      };
      try {
        const stream = await client.chat.completions.create(
          { model: chat.model, messages: chat.messages, stream: true },
          { signal: upstream.signal },
        );
        for await (const chunk of stream) {
          // some servers send `choices: null` in their usage chunk
          const choice = chunk.choices?.[0];
          const delta = (choice?.delta ?? {}) as Record<string, unknown>;
          const reasoning = within(reasoningOf(delta));
          if (reasoning !== '') send({ event: 'reasoning', data: { text: reasoning } });
          const content = within(typeof delta.content === 'string' ? delta.content : '');
          if (content !== '') send({ event: 'content', data: { text: content } });
          if (state.stopped !== null) break;
          if (reasoning !== '' || content !== '') sawToken = true;
          // before the first token the first-token limit holds; after it, the idle limit
          if (sawToken) rearm();
          if (choice?.finish_reason) finishReason = choice.finish_reason;
        }
        // an abort ends the library's iteration quietly: say why here
        if (state.stopped !== null) return finishStopped(state.stopped);
        if (finishReason === undefined) {
          return send(
            errorEvent(
              'dropped',
              `${chat.provider.label} ended the stream before the answer was complete.`,
            ),
          );
        }
        send({ event: 'done', data: { finish_reason: finishReason } });
      } catch (error) {
        if (state.stopped !== null) return finishStopped(state.stopped);
        if (error instanceof APIUserAbortError) return;
        if (error instanceof OpenAI.APIConnectionError) {
          deps.warn({ provider: chat.provider.value }, 'AI provider unreachable');
          return send(
            errorEvent(
              'unreachable',
              `Could not reach ${chat.provider.label} at ${chat.provider.base_url}.`,
            ),
          );
        }
        if (error instanceof APIError) {
          const event = apiErrorEvent(error, chat);
          deps.warn(
            { provider: chat.provider.value, model: chat.model, status: error.status },
            'AI provider refused the chat',
          );
          return send(event);
        }
        // the connection broke while reading the body, or a chunk was not JSON
        deps.warn(
          { provider: chat.provider.value, error: (error as Error).message },
          'AI stream broke',
        );
        return send(
          errorEvent(
            'dropped',
            error instanceof SyntaxError
              ? `${chat.provider.label} sent an answer that could not be read.`
              : `The connection to ${chat.provider.label} was lost during the answer.`,
          ),
        );
      } finally {
        clearTimeout(timer);
        clearTimeout(totalTimer);
        signal.removeEventListener('abort', onClientGone);
      }

      function finishStopped(reason: StopReason): void {
        if (reason === 'client') return;
        send(
          stoppedEvent(reason, chat.provider.label, {
            firstTokenMs: config.firstTokenTimeoutMs,
            idleMs: config.idleTimeoutMs,
            totalMs,
            maxChars,
          }),
        );
      }
    },
  };
}
