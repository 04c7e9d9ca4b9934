import { levelColour } from '@ct/domain';
import { Tag } from 'antd';
import { messages } from '../../i18n/firstScreen';

/** 'Level n' in the level's colour; gray is antd's neutral tag. */
export function LevelTag({ level }: { level: number }) {
  const colour = levelColour(level);
  return (
    <Tag color={colour === 'gray' ? undefined : colour} data-colour={colour}>
      {messages.accounts.level(level)}
    </Tag>
  );
}
