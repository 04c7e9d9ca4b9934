/** The spec's texts of the notifications list and its settings (see messages.ts). */
export const notifications = {
  notifications: {
    title: 'Notifications',
    empty: 'No new notifications',
    list: 'Notifications list',
    unreadCount: (n: number) => (n === 1 ? '1 unread' : `${n} unread`),
    unreadMark: 'Unread',
    markAllRead: 'Mark all read',
    loadFailed: 'Notifications could not be loaded',
    retry: 'Retry',
    settings: 'Notification settings',
    browser: 'Browser notifications',
    browserHint: 'Shown by your browser when this page is in the background.',
    browserDenied:
      'Your browser blocks notifications for this site: allow them in its site settings.',
    browserUnsupported: 'This browser cannot show notifications.',
    kind: 'Event',
    popUp: 'Pop-up',
    sound: 'Sound',
    popUpFor: (kind: string) => `Browser notification for ${kind}`,
    soundFor: (kind: string) => `Sound for ${kind}`,
    kinds: {
      alert_fired: 'Alert fired',
      pending_filled: 'Pending order filled',
      pending_rejected: 'Pending order refused',
      take_profit: 'Take profit hit',
      stop_loss: 'Stop loss hit',
      stop_out: 'Stop out',
      margin_warning: 'Margin warning',
      ai_task_completed: 'AI task completed',
      ai_task_failed: 'AI task failed',
      optimization_completed: 'Optimisation completed',
      optimization_failed: 'Optimisation failed',
      live_run_error: 'Live run error',
      live_run_stopped: 'Live run stopped',
    },
    /** The line under a notification's title, from its parameters (`p(name)`). */
    body: (kind: string, p: (name: string) => string): string => {
      const side = p('side') === 'sell' ? 'Sell' : p('side') === 'buy' ? 'Buy' : '';
      const lots = p('volume') ? `${p('volume')} ` : '';
      const account = p('account') ? ` · ${p('account')}` : '';
      switch (kind) {
        case 'alert_fired':
          return [p('message') || p('alert'), p('symbol'), p('price') && `at ${p('price')}`]
            .filter(Boolean)
            .join(' · ');
        case 'pending_filled':
          return `${side} ${lots}${p('symbol')} filled at ${p('price')}${account}`.trim();
        case 'pending_rejected':
          return `${p('symbol')} pending order #${p('pending_id')}: ${p('message')}${account}`;
        case 'take_profit':
        case 'stop_loss':
        case 'stop_out':
          return `${side} ${lots}${p('symbol')} closed at ${p('price')}, P&L ${p('profit')}${account}`.trim();
        case 'margin_warning':
          return `Margin level ${p('level')}% is below ${p('warning_level')}%${account}`;
        case 'ai_task_completed':
          return `${p('prompt')} (${p('symbol')} ${p('period')})`;
        case 'ai_task_failed':
          return `${p('prompt')}: ${p('error')}`;
        case 'optimization_completed':
          return `${p('strategy')} on ${p('symbol')} ${p('period')}: ${p('ok')} of ${p('trials')} trials ran`;
        case 'optimization_failed':
          return `${p('strategy')} on ${p('symbol')} ${p('period')}: no trial ran without an error`;
        case 'live_run_error':
        case 'live_run_stopped':
          return `${p('strategy')} on ${p('symbol')}: ${p('error')}`;
        default:
          return '';
      }
    },
  },
} as const;
