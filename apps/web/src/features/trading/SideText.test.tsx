import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { switchTo } from '../../i18n/switch';
import { SideText } from './SideText';

afterEach(async () => {
  await switchTo('default');
});

describe('SideText', () => {
  it('names the side as the spec does by default, in its colour', () => {
    render(
      <>
        <SideText cmd={1} />
        <SideText cmd={2} />
      </>,
    );
    expect(screen.getByText('Buy')).toHaveClass('side-buy');
    expect(screen.getByText('Sell')).toHaveClass('side-sell');
  });

  it('names the side in Chinese when 简体中文 is chosen', async () => {
    await switchTo('zh-CN');
    render(
      <>
        <SideText cmd={1} />
        <SideText cmd={2} />
      </>,
    );
    expect(screen.getByText('买入')).toHaveClass('side-buy');
    expect(screen.getByText('卖出')).toHaveClass('side-sell');
  });
});
