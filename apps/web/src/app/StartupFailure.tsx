import { Button, Result } from 'antd';
import { messages } from '../i18n/firstScreen';

/**
 * The start-up's failure screen. Its own chunk: antd's Result carries its illustrations
 * (about 30 KB), which a start-up that succeeds never needs.
 */
export default function StartupFailure({ reason }: { reason: string }) {
  return (
    <main className="startup">
      <Result
        status="error"
        title={messages.startup.failedTitle}
        subTitle={<span role="alert">{reason}</span>}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {messages.startup.reload}
          </Button>
        }
      />
    </main>
  );
}
