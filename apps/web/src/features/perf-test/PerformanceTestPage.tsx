import { Button, Empty, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { navigateTo } from '../../shared/navigation';
import { ThemeButton } from '../../shared/ThemeButton';
import { messages } from '../../i18n/messages';

const p = messages.perfTest;
/** The spec's test symbols (section 2, internal performance test page). */
const TEST_SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'XAGUSD', 'USOUSD'];

/** Internal performance test page: a shell until the performance-test issue fills it. */
export function PerformanceTestPage() {
  return (
    <div className="perf-page">
      <header className="page-header">
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigateTo('/')}>
          {messages.profile.returnToMain}
        </Button>
        <ThemeButton />
      </header>
      <main className="perf-main">
        <Typography.Text type="secondary">{p.title}</Typography.Text>
        <Typography.Title level={2} className="perf-title">
          {p.heading}
        </Typography.Title>
        <Typography.Paragraph>
          {p.symbols}: <span className="num">{TEST_SYMBOLS.join(', ')}</span>
        </Typography.Paragraph>
        <Empty description={p.pending} />
      </main>
    </div>
  );
}
