// the label lives in shared: the Alerts panel words indicator alerts with it too
export { indicatorLabel } from '../../../shared/indicatorLabel';
