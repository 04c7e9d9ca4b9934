/**
 * 简体中文 of the server's known refusal texts (`{ msg }` / `{ detail }`), exact texts first,
 * then the ones carrying a name or a number. A text not known here is shown as the server
 * sent it.
 */
const EXACT: Record<string, string> = {
  'Default strategy cannot be modified': '默认策略不可修改',
  'Please set OpenAI API Key first': '请先设置 OpenAI API Key',
  'Only a completed task with code can be saved as a strategy':
    '只有已完成且有代码的任务才能保存为策略',
  'The server is shutting down; try again': '服务器正在关闭，请稍后重试',
  'Request body is too large': '请求内容过大',
  'Malformed JSON body': '请求内容不是有效的 JSON',
  'Drawing not found': '未找到该画线',
  'Internal server error': '服务器内部错误',
  // trading: the success texts of the order helpers (TRADING_SUCCESS)
  'Order filled': '订单已成交',
  'Pending order placed': '挂单已提交',
  'Take Profit / Stop Loss updated successfully': '止盈/止损已更新',
  'Position closed successfully': '平仓成功',
  'Pending order canceled successfully': '挂单已撤销',
  'Pending order updated successfully': '挂单已修改',
};

/** A pending order's status inside "Pending order … is already <status>". */
const PENDING_STATUS: Record<string, string> = {
  filled: '已成交',
  canceled: '已撤销',
  cancelled: '已撤销',
  expired: '已过期',
  rejected: '已被拒绝',
};

const PATTERNS: [RegExp, (...groups: string[]) => string][] = [
  [/^Strategy not found: (.+)$/, (name) => `未找到策略：${name}`],
  [/^Strategy already exists: (.+)$/, (name) => `策略已存在：${name}`],
  [/^Version not found: (.+)$/, (id) => `未找到版本：${id}`],
  [/^Unknown symbol: (.+)$/, (symbol) => `未知品种：${symbol}`],
  // trading refusals (TRADING_MESSAGES), in an error answer or inside a 200 answer
  [/^The market for (.+) is closed$/, (symbol) => `${symbol} 当前休市`],
  [/^No quote available for (.+)$/, (symbol) => `${symbol} 暂无报价`],
  [
    /^Insufficient margin: the order needs (\S+) (\S+) \(margin and commission\), free margin is (\S+) \S+$/,
    (required, currency, free) =>
      `保证金不足：该订单需要 ${required} ${currency}（保证金和手续费），可用保证金为 ${free} ${currency}`,
  ],
  [/^Order not found: (.+)$/, (id) => `未找到订单：${id}`],
  [/^Pending order not found: (.+)$/, (id) => `未找到挂单：${id}`],
  [/^Order (.+) is already closed$/, (id) => `订单 ${id} 已平仓`],
  [
    /^Pending order (.+) is already (.+)$/,
    (id, status) => `挂单 ${id} ${PENDING_STATUS[status] ?? `已是 ${status} 状态`}`,
  ],
  [
    /^clientOrderId (.+) was already used for a different request$/,
    (id) => `clientOrderId ${id} 已用于另一个请求`,
  ],
  [
    /^Too many strategies \(at most (\d+)\); delete one first$/,
    (max) => `策略过多（最多 ${max} 个），请先删除一个`,
  ],
  [
    /^You already have (\d+) live runs running; stop one first \(at most (\d+) at once\)$/,
    (count, max) => `已有 ${count} 个实时运行，请先停止一个（同时最多 ${max} 个）`,
  ],
  [
    /^Too many chat messages\. Please try again in (\d+) seconds\.$/,
    (seconds) => `聊天消息过多，请 ${seconds} 秒后重试`,
  ],
];

/** A server text in Chinese when it is a known one; the server's own text otherwise. */
export function serverTextZh(text: string): string {
  const exact = EXACT[text];
  if (exact) return exact;
  for (const [pattern, translate] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return translate(...match.slice(1));
  }
  return text;
}
