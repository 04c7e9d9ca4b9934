// antd's Tooltip as a chunk of its own: see LazyTooltip.
export { Tooltip } from 'antd';
