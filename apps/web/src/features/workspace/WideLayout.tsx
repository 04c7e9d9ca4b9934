import { Suspense, useEffect } from 'react';
import { lazyAfterFirstChart } from '../../shared/firstChart';
import { useChartTradeStore } from '../../shared/tradeAction';
import { useBottomPanelStore } from './bottom-panel/store';
import { ChartGrid } from './chart-grid/ChartGrid';
import { SideButtons, SidePanel } from './side-panel/SidePanel';
import { openSidePanel } from './side-panel/store';
import { Toolbar } from './Toolbar';
import { loadNotificationsRuntime } from '../notifications/lazy';

// The trade tables and the account bar follow the first drawn chart (shared/firstChart.ts).
const BottomPanel = lazyAfterFirstChart(() =>
  import('./bottom-panel/BottomPanel').then((m) => ({ default: m.BottomPanel })),
);

const NotificationsRuntime = lazyAfterFirstChart(() =>
  loadNotificationsRuntime().then((m) => ({
    default: m.NotificationsRuntime,
  })),
);

/** The bottom panel's place while its code loads: its size and bar, nothing in them. */
function BottomPanelShell() {
  const size = useBottomPanelStore((s) => s.size);
  return (
    <section className={`bottom-panel bottom-panel-${size}`} aria-busy="true">
      <div className="bottom-panel-bar" />
    </section>
  );
}

/** Wide workspace: toolbar, chart grid over the bottom panel, side panel on the right. */
export function WideLayout() {
  const maximized = useBottomPanelStore((s) => s.size === 'maximized');
  // A trade action from a chart opens the trading panel (spec section 2, wide layout).
  useEffect(
    () =>
      useChartTradeStore.subscribe((state, previous) => {
        if (state.action && state.seq !== previous.seq) openSidePanel('trading');
      }),
    [],
  );
  return (
    <div className="workspace-wide">
      <Toolbar />
      <div className="workspace-body">
        <main className="workspace-main">
          {/* Kept mounted while the panel is maximized so charts keep their state. */}
          <div className="workspace-charts" hidden={maximized}>
            <ChartGrid />
          </div>
          <Suspense fallback={<BottomPanelShell />}>
            <BottomPanel />
          </Suspense>
        </main>
        <SidePanel />
        <SideButtons />
        <Suspense fallback={null}>
          <NotificationsRuntime />
        </Suspense>
      </div>
    </div>
  );
}
