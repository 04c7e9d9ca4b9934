import { AppstoreOutlined, BorderOutlined, HomeOutlined, PauseOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Segmented } from '../../shared/Segmented';
import { LazyTooltip } from '../../shared/antd/LazyTooltip';
import type { ReactNode } from 'react';
import { navigateTo } from '../../shared/navigation';
import { ThemeButton } from '../../shared/ThemeButton';
import { messages } from '../../i18n/firstScreen';
import { AccountControl } from '../accounts';
import { CHART_LAYOUTS, setChartLayout, useChartGridStore } from '../../shared/chartGrid';
import type { ChartLayout } from '../../shared/chartGrid';

const w = messages.workspace;

const LAYOUT_ICONS: Record<ChartLayout, ReactNode> = {
  1: <BorderOutlined />,
  2: <PauseOutlined />,
  4: <AppstoreOutlined />,
};

/** Chooses 1, 2 or 4 charts; the choice is remembered ('chartLayout'). */
export function LayoutSelector() {
  const layout = useChartGridStore((s) => s.layout);
  return (
    <Segmented<ChartLayout>
      aria-label={w.chartLayout}
      value={layout}
      onChange={setChartLayout}
      options={CHART_LAYOUTS.map((n) => ({
        value: n,
        title: w.layoutOption(n),
        label: (
          <span className="layout-option">
            {LAYOUT_ICONS[n]}
            <span>{n}</span>
          </span>
        ),
      }))}
    />
  );
}

export function HomeButton() {
  return (
    <LazyTooltip title={w.home}>
      <Button type="text" icon={<HomeOutlined />} onClick={() => navigateTo('/')}>
        <span className="toolbar-home-label">{w.home}</span>
      </Button>
    </LazyTooltip>
  );
}

/** The wide workspace toolbar: home, layout selector, account control, theme. */
export function Toolbar({ showLayout = true }: { showLayout?: boolean }) {
  return (
    <header className="toolbar">
      <div className="toolbar-group">
        <HomeButton />
        {showLayout && <LayoutSelector />}
      </div>
      <div className="toolbar-group">
        <AccountControl />
        <ThemeButton />
      </div>
    </header>
  );
}
