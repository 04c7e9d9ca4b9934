import type { Messages } from '../../messages';
import type { Texts } from '../../texts';
import { aiTasks } from './aiTasks';
import { alerts } from './alerts';
import { assistant } from './assistant';
import { chart } from './chart';
import { liveRuns } from './liveRuns';
import { notifications } from './notifications';
import { optimize } from './optimize';
import { profile } from './profile';
import { replay } from './replay';
import { shell } from './shell';
import { strategy } from './strategy';
import { trading } from './trading';
import { workspace } from './workspace';

/**
 * 简体中文, every section. The performance test page's texts are Chinese in the spec already:
 * only its title is given here, its other texts are the default ones.
 */
export const zh: Omit<Texts<Messages>, 'perfTest'> & {
  perfTest: Pick<Texts<Messages['perfTest']>, 'title'>;
} = {
  perfTest: { title: '性能测试' },
  ...shell,
  ...workspace,
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
};
