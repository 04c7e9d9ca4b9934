import './spinner.css';

/**
 * The first screen's loading spinner: antd's Spin look (a ring in the primary colour) drawn by
 * CSS alone, so the first load does not carry the Spin component. Decorative: the caller's
 * element carries the status and its label.
 */
export function Spinner({ size = 'default' }: { size?: 'small' | 'default' | 'large' }) {
  return <span className={`ct-spinner ct-spinner-${size}`} aria-hidden="true" />;
}
