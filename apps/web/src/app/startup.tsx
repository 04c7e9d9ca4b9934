import { CheckCircleFilled, ClockCircleOutlined, LoadingOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { ReactNode } from 'react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { messages } from '../i18n/firstScreen';
import { connectLive } from '../realtime/connection';
import { storedLiveIdentity } from './liveIdentity';
import { registerSharedModules } from './sharedModules';

const StartupFailure = lazy(() => import('./StartupFailure'));

export type StartupStep = {
  key: string;
  label: string;
  /** Prefix of the failure reason, e.g. 'WebSocket connection failed: '. */
  failurePrefix: string;
  run: () => Promise<void>;
};

// Texts read when drawn (getters): a kept language is put in place after this module loads.
export const defaultStartupSteps: StartupStep[] = [
  {
    key: 'shared-modules',
    get label() {
      return messages.startup.stepSharedModules;
    },
    get failurePrefix() {
      return messages.startup.initFailed;
    },
    run: registerSharedModules,
  },
  {
    key: 'live',
    get label() {
      return messages.startup.stepLiveConnection;
    },
    get failurePrefix() {
      return messages.startup.websocketFailed;
    },
    run: () => connectLive({ identity: storedLiveIdentity() }),
  },
];

type Status = { done: number; error: string | null };

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs the start-up steps in order; renders its children only when all succeeded. */
export function Startup({
  steps = defaultStartupSteps,
  children,
}: {
  steps?: StartupStep[];
  children: ReactNode;
}) {
  const [status, setStatus] = useState<Status>({ done: 0, error: null });
  const { token } = theme.useToken();

  useEffect(() => {
    let cancelled = false;
    (async () => {
      for (const [index, step] of steps.entries()) {
        try {
          await step.run();
        } catch (error) {
          if (!cancelled) setStatus({ done: index, error: step.failurePrefix + reasonOf(error) });
          return;
        }
        if (!cancelled) setStatus({ done: index + 1, error: null });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [steps]);

  if (status.error !== null) {
    return (
      <Suspense fallback={null}>
        <StartupFailure reason={status.error} />
      </Suspense>
    );
  }

  if (status.done >= steps.length) return <>{children}</>;

  return (
    <main className="startup" aria-busy="true">
      <div className="startup-card">
        {/* Drawn as antd's Typography title and texts, without their code (Typography brings
            Input and TextArea for its editable mode) in the first load. */}
        <h4 className="startup-title">{messages.startup.initializing}</h4>
        <ol className="startup-steps">
          {steps.map((step, index) => {
            const state = index < status.done ? 'done' : index === status.done ? 'active' : 'todo';
            return (
              <li key={step.key} data-state={state}>
                <span className="startup-step-icon" aria-hidden="true">
                  {state === 'done' ? (
                    <CheckCircleFilled style={{ color: token.colorSuccess }} />
                  ) : state === 'active' ? (
                    <LoadingOutlined style={{ color: token.colorPrimary }} />
                  ) : (
                    <ClockCircleOutlined style={{ color: token.colorTextQuaternary }} />
                  )}
                </span>
                <span className={state === 'todo' ? 'startup-step-todo' : undefined}>
                  {step.label}
                </span>
              </li>
            );
          })}
        </ol>
      </div>
    </main>
  );
}
