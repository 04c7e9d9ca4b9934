import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { messages } from '../i18n/firstScreen';
import { toggleTheme, useThemeStore } from './theme';

/** Switches between the light and dark theme; the label names the theme it switches to. */
export function ThemeButton({ size }: { size?: 'small' | 'middle' | 'large' }) {
  const mode = useThemeStore((s) => s.mode);
  const label = mode === 'dark' ? messages.theme.toLight : messages.theme.toDark;
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size={size}
        aria-label={label}
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={toggleTheme}
      />
    </Tooltip>
  );
}
