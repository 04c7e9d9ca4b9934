import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import AssistantPanel from './AssistantPanel';
import { resetAssistantSettings, useAssistantSettings } from './settingsStore';
import { closeAssistant, openAssistant, resetChat, setChatClock, useChatStore } from './store';
import { json, PROVIDERS, QWEN_NO_KEY, sse, stubServer } from './testSupport';

/** The chat's error bubbles (the error toasts are alerts too). */
const bubbleAlerts = () => screen.queryAllByRole('alert').filter((a) => !a.closest('.ant-message'));

const OLLAMA = {
  apiKey: '',
  provider: 'ollama',
  model: 'qwen3:8b',
  baseURL: 'http://127.0.0.1:11434/v1',
};

const ANSWER: [string, unknown][] = [
  ['reasoning', { text: 'Compare a fast and a slow average.' }],
  ['content', { text: '## Crossover\n\n```python\ndef main(data_array):\n' }],
  ['content', { text: '    return []\n```\n' }],
  ['done', { finish_reason: 'stop' }],
];

function conversation() {
  return screen.getByRole('log', { name: 'AI Trading Assistant' });
}

async function ask(user: ReturnType<typeof renderWithProviders>['user'], text: string) {
  const input = screen.getByRole('textbox', { name: 'Message' });
  await user.click(input);
  await user.paste(text);
  await user.keyboard('{Enter}');
}

beforeEach(() => {
  resetChat();
  resetAssistantSettings();
  let now = 10_000;
  // each reading of the clock is 1.5 s later: the thinking time is known
  setChatClock(() => (now += 1_500));
});
afterEach(() => {
  resetChat();
  resetAssistantSettings();
  setChatClock(() => Date.now());
});

describe('the AI Trading Assistant chat', () => {
  it('welcomes with four suggestions', async () => {
    stubServer({});
    openAssistant();
    renderWithProviders(<AssistantPanel />);
    await screen.findByText("Hi, I'm your AI Trading Assistant");
    const suggestions = within(conversation()).getAllByRole('listitem');
    expect(suggestions).toHaveLength(4);
  });

  it("refuses without a key: 'Please set OpenAI API Key first' and the settings open", async () => {
    const server = stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(QWEN_NO_KEY),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    await ask(user, 'Write a strategy');
    expect(await screen.findByText('Please set OpenAI API Key first')).toBeInTheDocument();
    // (antd gives every title the same id under test, so the dialog is found by its field)
    expect(await screen.findByLabelText('OpenAI API Key')).toBeInTheDocument();
    expect(useAssistantSettings.getState().modalOpen).toBe(true);
    expect(server.called('POST /api/ai/chat')).toHaveLength(0);
    // the question is kept for after the key is set
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Write a strategy');
  });

  it('sends without a key to Ollama and streams the answer with its reasoning', async () => {
    const server = stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(OLLAMA),
      'POST /api/ai/chat': () => sse(ANSWER),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    await ask(user, 'Write a crossover strategy');
    await screen.findByRole('heading', { name: 'Crossover' });
    expect(
      screen.getByRole('button', { name: /^Deep Thinking Completed \(Time: \d+ seconds\)$/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'python code' })).toHaveTextContent(
      'def main(data_array):',
    );
    const [call] = server.called('POST /api/ai/chat');
    expect(call?.body).toMatchObject({
      messages: [{ role: 'user', content: 'Write a crossover strategy' }],
      provider: 'ollama',
      model: 'qwen3:8b',
    });
    await waitFor(() => expect(useChatStore.getState().streaming).toBe(false));
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  });

  it('sends a suggestion when clicked', async () => {
    const server = stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(OLLAMA),
      'POST /api/ai/chat': () => sse(ANSWER),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    const first = await screen.findByRole('button', {
      name: 'Write a moving average crossover strategy with a stop loss',
    });
    await user.click(first);
    await screen.findByRole('heading', { name: 'Crossover' });
    expect(server.called('POST /api/ai/chat')[0]?.body).toMatchObject({
      messages: [
        { role: 'user', content: 'Write a moving average crossover strategy with a stop loss' },
      ],
    });
  });

  it('shows the error toast and bubble when the answer fails', async () => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(OLLAMA),
      'POST /api/ai/chat': () =>
        sse([
          ['content', { text: 'Half an' }],
          [
            'error',
            { code: 'upstream', message: 'Ollama failed to answer (HTTP 500).', status: 500 },
          ],
        ]),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    await ask(user, 'Hello');
    expect(await screen.findByText('An error occurred, please try again')).toBeInTheDocument();
    await waitFor(() => expect(bubbleAlerts()).toHaveLength(1));
    const alert = bubbleAlerts()[0]!;
    expect(alert).toHaveTextContent('Sorry, an error occurred. Please try again.');
    expect(alert).toHaveTextContent('Ollama failed to answer (HTTP 500).');
  });

  it.each([
    [
      'too_long',
      'The answer passed the limit of 300000 characters and was cut there; the rest was not read.',
    ],
    ['timeout', 'Ollama did not finish its answer within 300 s; the answer is incomplete.'],
  ])('keeps an answer the server ended (%s) and shows its note under it', async (code, note) => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(OLLAMA),
      'POST /api/ai/chat': () =>
        sse([
          ['content', { text: 'The first part of a long answer' }],
          ['error', { code, message: note }],
        ]),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    await ask(user, 'Hello');
    await waitFor(() => expect(bubbleAlerts()).toHaveLength(1));
    expect(bubbleAlerts()[0]).toHaveTextContent(note);
    expect(screen.getByText('The first part of a long answer')).toBeInTheDocument();
  });

  it('treats a refused request and a cut stream as errors', async () => {
    let answers = 0;
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(OLLAMA),
      'POST /api/ai/chat': () =>
        ++answers === 1
          ? json(
              { code: 42900, msg: 'Too many chat messages.', detail: 'Too many chat messages.' },
              429,
            )
          : sse([['content', { text: 'Cut' }]]),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    await ask(user, 'One');
    await waitFor(() => expect(bubbleAlerts()).toHaveLength(1));
    expect(bubbleAlerts()[0]).toHaveTextContent('Too many chat messages.');
    await waitFor(() => expect(useChatStore.getState().streaming).toBe(false));
    await ask(user, 'Two');
    await waitFor(() => expect(bubbleAlerts()).toHaveLength(2));
  });

  it('keeps the conversation when closed and reopened; a new conversation clears it', async () => {
    stubServer({
      'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
      'GET /api/settings': () => json(OLLAMA),
      'POST /api/ai/chat': () => sse(ANSWER),
    });
    openAssistant();
    const { user } = renderWithProviders(<AssistantPanel />);
    await ask(user, 'Keep me');
    await screen.findByRole('heading', { name: 'Crossover' });
    act(() => closeAssistant());
    act(() => openAssistant());
    expect(await screen.findByText('Keep me')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(screen.queryByText('Keep me')).toBeNull());
    expect(screen.getByText("Hi, I'm your AI Trading Assistant")).toBeInTheDocument();
    expect(useAssistantSettings.getState().provider).toBe('ollama');
  });
});
