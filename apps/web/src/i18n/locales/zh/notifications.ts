import type { SectionTexts } from '../../texts';

/** 简体中文: the notifications and their settings. */
export const notifications: SectionTexts<'notifications'> = {
  notifications: {
    title: '通知',
    empty: '暂无新通知',
    list: '通知列表',
    unreadCount: (n: number) => `${n} 条未读`,
    unreadMark: '未读',
    markAllRead: '全部标为已读',
    loadFailed: '无法加载通知',
    retry: '重试',
    settings: '通知设置',
    browser: '浏览器通知',
    browserHint: '页面在后台时由浏览器显示。',
    browserDenied: '浏览器阻止了本站的通知：请在网站设置中允许。',
    browserUnsupported: '此浏览器无法显示通知。',
    kind: '事件',
    popUp: '弹窗',
    sound: '声音',
    popUpFor: (kind: string) => `${kind}的浏览器通知`,
    soundFor: (kind: string) => `${kind}的声音`,
    kinds: {
      alert_fired: '警报触发',
      pending_filled: '挂单成交',
      pending_rejected: '挂单被拒绝',
      take_profit: '触发止盈',
      stop_loss: '触发止损',
      stop_out: '强制平仓',
      margin_warning: '保证金警告',
      ai_task_completed: 'AI 任务完成',
      ai_task_failed: 'AI 任务失败',
      optimization_completed: '优化完成',
      optimization_failed: '优化失败',
      live_run_error: '实盘运行错误',
      live_run_stopped: '实盘运行已停止',
    },
    body: (kind: string, p: (name: string) => string): string => {
      const side = p('side') === 'sell' ? '卖出' : p('side') === 'buy' ? '买入' : '';
      const lots = p('volume') ? `${p('volume')} ` : '';
      const account = p('account') ? ` · ${p('account')}` : '';
      switch (kind) {
        case 'alert_fired':
          return [p('message') || p('alert'), p('symbol'), p('price') && `价格 ${p('price')}`]
            .filter(Boolean)
            .join(' · ');
        case 'pending_filled':
          return `${side} ${lots}${p('symbol')} 成交于 ${p('price')}${account}`.trim();
        case 'pending_rejected':
          return `${p('symbol')} 挂单 #${p('pending_id')}：${p('message')}${account}`;
        case 'take_profit':
        case 'stop_loss':
        case 'stop_out':
          return `${side} ${lots}${p('symbol')} 平仓于 ${p('price')}，盈亏 ${p('profit')}${account}`.trim();
        case 'margin_warning':
          return `保证金水平 ${p('level')}% 低于 ${p('warning_level')}%${account}`;
        case 'ai_task_completed':
          return `${p('prompt')}（${p('symbol')} ${p('period')}）`;
        case 'ai_task_failed':
          return `${p('prompt')}：${p('error')}`;
        case 'optimization_completed':
          return `${p('strategy')} 于 ${p('symbol')} ${p('period')}：${p('trials')} 次试验中 ${p('ok')} 次完成`;
        case 'optimization_failed':
          return `${p('strategy')} 于 ${p('symbol')} ${p('period')}：没有一次试验无错完成`;
        case 'live_run_error':
        case 'live_run_stopped':
          return `${p('strategy')} 于 ${p('symbol')}：${p('error')}`;
        default:
          return '';
      }
    },
  },
};
