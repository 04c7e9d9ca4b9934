// The bar replay's public face (the chart imports it, never the files behind it).
export { ReplayBar, type ReplayBarProps } from './ReplayBar';
