import type { SectionTexts } from '../../texts';

/** 简体中文: bar replay. */
export const replay: SectionTexts<'replay'> = {
  replay: {
    region: 'K线回放',
    title: '回放',
    titleWith: (strategy: string) => `回放 · ${strategy}`,
    barsBack: '回退K线数',
    strategy: '策略',
    noStrategy: '无策略',
    start: '开始回放',
    starting: '正在开始…',
    play: '播放',
    pause: '暂停',
    stepBack: '后退一步',
    stepForward: '前进一步',
    speed: '速度',
    speedOption: (n: number) => `${n}×`,
    exit: '退出回放',
    cursor: (time: string) => `回放至 ${time}`,
    atEnd: '已到最新K线',
    quantity: '数量',
    buy: '买入',
    sell: '卖出',
    balance: '余额',
    equity: '净值',
    profit: '盈亏',
    positions: '回放持仓',
    noPositions: '没有回放持仓',
    close: '平仓',
    closePosition: (id: number) => `平掉回放持仓 ${id}`,
    side: (side: 'buy' | 'sell') => (side === 'buy' ? '买入' : '卖出'),
    trades: (n: number) => `已平仓 ${n} 笔`,
    strategyPrinted: '策略输出',
    marker: (side: string, volume: string) => `回放 ${side} ${volume}`,
    markerShort: (side: 'buy' | 'sell', strategy: boolean) =>
      `${strategy ? 'S' : 'R'}${side === 'buy' ? 'B' : 'S'}`,
    markerDetail: (action: string, side: string, volume: string, price: string) =>
      `回放 ${action} ${side} ${volume}，价格 ${price}`,
    noBars: '图表上的K线不足，无法回放',
    failed: '回放失败',
  },
};
