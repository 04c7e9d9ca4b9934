import { FRAME_LOG_KEY, SHARED_ACTIONS, type LogRelayPayload } from '@ct/domain';
import { childFrames, postFrameMessage, registerFrameHandler } from '../../realtime/frameBridge';
import { openLogSocket, type LogSocketState } from './logSocket';

/*
 * The main window holds the execution log sockets of its frames' editors (spec: child
 * frames never open a socket): one socket /ws/{clientId} per frame chart that opened the
 * editor, whose lines go to that frame as `cw_state_update` 'strategy/log'. A relay ends
 * when its frame says goodbye (frame/leave) or is found gone.
 */

type Relay = { target: Window; state: LogSocketState; close: () => void };

const relays = new Map<string, Relay>();
let stopLeaveWatch: (() => void) | null = null;

function send(clientId: string, relay: Relay, lines: string[]): void {
  if (relays.get(clientId) !== relay) return; // an ended relay's socket closing
  if (!childFrames().includes(relay.target)) {
    endLogRelay(clientId); // the frame went away without a goodbye
    return;
  }
  const payload: LogRelayPayload = { clientId, state: relay.state, lines };
  postFrameMessage(relay.target, { type: 'cw_state_update', key: FRAME_LOG_KEY, payload });
}

function watchLeaves(): void {
  stopLeaveWatch ??= registerFrameHandler('cw_action', (message, event) => {
    if (message.action !== SHARED_ACTIONS.frameLeave) return;
    for (const [clientId, relay] of relays) {
      if (relay.target === event.source) endLogRelay(clientId);
    }
  });
}

/**
 * Forwards the log of `clientId` to the frame `target` (idempotent per client id; a new
 * target takes the relay over). The frame gets the socket's state at once.
 */
export function startLogRelay(clientId: string, target: Window): void {
  const existing = relays.get(clientId);
  if (existing) {
    existing.target = target;
    send(clientId, existing, []);
    return;
  }
  watchLeaves();
  const relay: Relay = { target, state: 'connecting', close: () => {} };
  relays.set(clientId, relay);
  relay.close = openLogSocket(clientId, {
    lines: (lines) => send(clientId, relay, lines),
    state: (state) => {
      relay.state = state;
      send(clientId, relay, []);
    },
  });
}

/** Closes the relay (and its socket) of `clientId`. */
export function endLogRelay(clientId: string): void {
  const relay = relays.get(clientId);
  if (!relay) return;
  relays.delete(clientId);
  relay.close();
}

/** The client ids whose logs are relayed now (tests, monitoring). */
export function relayedClients(): string[] {
  return [...relays.keys()];
}

/** Ends every relay (tests). */
export function endAllLogRelays(): void {
  for (const clientId of [...relays.keys()]) endLogRelay(clientId);
  stopLeaveWatch?.();
  stopLeaveWatch = null;
}
