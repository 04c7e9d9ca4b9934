import Icon from '@ant-design/icons';
import type { DrawingTool } from './DrawingLayer';

/* Icons of the drawing tools: antd has none for them. 24 × 24, drawn in the text colour. */

const svg = (children: React.ReactNode) =>
  function ToolSvg() {
    return (
      <svg
        viewBox="0 0 24 24"
        width="1em"
        height="1em"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        aria-hidden="true"
      >
        {children}
      </svg>
    );
  };

const ICONS: Record<DrawingTool, () => React.JSX.Element> = {
  horizontal: svg(
    <>
      <path d="M2 12h20" />
      <circle cx="12" cy="12" r="2.2" fill="currentColor" />
    </>,
  ),
  trend: svg(
    <>
      <path d="M4 19L20 5" />
      <circle cx="4" cy="19" r="2.2" fill="currentColor" />
      <circle cx="20" cy="5" r="2.2" fill="currentColor" />
    </>,
  ),
  vertical: svg(
    <>
      <path d="M12 2v20" />
      <circle cx="12" cy="12" r="2.2" fill="currentColor" />
    </>,
  ),
  rectangle: svg(<rect x="4" y="6" width="16" height="12" rx="1" />),
  fibonacci: svg(
    <>
      <path d="M3 4h18M3 9h18M3 13h18M3 20h18" />
      <path d="M5 20L19 4" strokeDasharray="2 2.5" strokeWidth="1.4" />
    </>,
  ),
  measure: svg(
    <>
      <rect x="2.5" y="8" width="19" height="8" rx="1" />
      <path d="M6 8v3.5M10 8v2.5M14 8v3.5M18 8v2.5" />
    </>,
  ),
};

export function DrawingToolIcon({ tool }: { tool: DrawingTool }) {
  return <Icon component={ICONS[tool]} />;
}
