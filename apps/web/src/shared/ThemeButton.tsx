import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { LazyTooltip } from './antd/LazyTooltip';
import { messages } from '../i18n/firstScreen';
import { toggleTheme, useThemeStore } from './theme';

/** Switches between the light and dark theme; the label names the theme it switches to. */
export function ThemeButton({ size }: { size?: 'small' | 'middle' | 'large' }) {
  const mode = useThemeStore((s) => s.mode);
  const label = mode === 'dark' ? messages.theme.toLight : messages.theme.toDark;
  return (
    <LazyTooltip title={label}>
      <Button
        type="text"
        size={size}
        aria-label={label}
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={toggleTheme}
      />
    </LazyTooltip>
  );
}
