import type { Notification as AppNotification } from '@ct/domain';
import { notificationText } from './text';
import { useNotificationSettings } from './settings';

let audio: AudioContext | null = null;

/** A short beep (Web Audio, no sound file): higher for good news, lower for trouble. */
export function beep(kind: AppNotification['kind']): void {
  const Context = globalThis.AudioContext;
  if (typeof Context !== 'function') return;
  try {
    audio ??= new Context();
    const trouble = /failed|error|stopped|stop_|margin|rejected/.test(kind);
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = 'sine';
    osc.frequency.value = trouble ? 440 : 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // a page that has not been interacted with may not play sound: nothing to do
  }
}

/**
 * Tells the user of a new notification the ways they chose for its kind: a browser
 * notification (while they are on and allowed) and a sound.
 */
export function announce(note: AppNotification): void {
  const settings = useNotificationSettings.getState();
  if (settings.soundKinds.includes(note.kind)) beep(note.kind);
  if (!settings.browser || !settings.browserKinds.includes(note.kind)) return;
  const Api = globalThis.Notification;
  if (typeof Api !== 'function' || Api.permission !== 'granted') return;
  const { title, body } = notificationText(note);
  try {
    new Api(title, { body, tag: `ct-notification-${note.id}` });
  } catch {
    // some browsers allow notifications only from a service worker
  }
}
