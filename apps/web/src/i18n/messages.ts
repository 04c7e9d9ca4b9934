import { messages as firstScreen } from './firstScreen';
import { aiTasks } from './defaults/aiTasks';
import { alerts } from './defaults/alerts';
import { assistant } from './defaults/assistant';
import { chart } from './defaults/chart';
import { liveRuns } from './defaults/liveRuns';
import { notifications } from './defaults/notifications';
import { optimize } from './defaults/optimize';
import { perfTest } from './defaults/perfTest';
import { profile } from './defaults/profile';
import { replay } from './defaults/replay';
import { shell } from './defaults/shell';
import { strategy } from './defaults/strategy';
import { trading } from './defaults/trading';

/**
 * Every user-visible text of the web client, referenced by key. Texts fixed by the spec
 * are copied verbatim (English and Chinese); validation texts come from `@ct/domain` so the
 * rule and its message live in one place. The first screen's texts are in firstScreen.ts.
 */
export const messages = {
  ...firstScreen,
  ...shell,
  ...chart,
  ...trading,
  ...profile,
  ...notifications,
  ...strategy,
  ...optimize,
  ...assistant,
  ...aiTasks,
  ...alerts,
  ...replay,
  ...liveRuns,
  ...perfTest,
} as const;

export type Messages = typeof messages;
