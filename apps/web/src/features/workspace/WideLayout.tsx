import { useEffect } from 'react';
import { useChartTradeStore } from '../../shared/tradeAction';
import { BottomPanel } from './bottom-panel/BottomPanel';
import { useBottomPanelStore } from './bottom-panel/store';
import { ChartGrid } from './chart-grid/ChartGrid';
import { SideButtons, SidePanel } from './side-panel/SidePanel';
import { openSidePanel } from './side-panel/store';
import { Toolbar } from './Toolbar';

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
          <BottomPanel />
        </main>
        <SidePanel />
        <SideButtons />
      </div>
    </div>
  );
}
