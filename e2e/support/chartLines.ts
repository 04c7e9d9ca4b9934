import type { Locator, Page } from 'playwright-core';

/*
 * The trader's lines on a chart (positions, TP/SL, pending orders) as the journeys reach them:
 * each line's label is a group named after it and sits centred on the line.
 */

/**
 * The y (page px) of a line: its label sits centred on it. Read at once, not once still: a
 * line follows the price scale, which live prices move, and a journey maps prices to ys from
 * two lines read together.
 */
export async function lineY(label: Locator): Promise<number> {
  const box = await label.boundingBox();
  if (!box) throw new Error('The line is not on screen');
  return box.y + box.height / 2;
}

/** A line's price and y. */
export async function placeOf(label: Locator): Promise<{ price: number; y: number }> {
  return { price: Number(await label.getAttribute('data-price')), y: await lineY(label) };
}

/** The page y of `price`, from two lines whose prices and ys are known. */
export function yOf(
  price: number,
  a: { price: number; y: number },
  b: { price: number; y: number },
): number {
  return a.y + ((price - a.price) * (b.y - a.y)) / (b.price - a.price);
}

/** The price a confirmation on `label` asks for: 'Move {what} to 61234.5?'. */
export async function askedPrice(label: Locator, what = '.+'): Promise<string> {
  const text =
    (await label.getByText(new RegExp(`^Move ${what} to [\\d.]+\\?$`)).textContent()) ?? '';
  const match = / to ([\d.]+)\?$/.exec(text);
  if (!match?.[1]) throw new Error(`No price in "${text}"`);
  return match[1];
}

/** The chart of `symbol` and the drags of its lines, by mouse and by finger. */
export function chartLines(symbol: string) {
  const chart = (page: Page): Locator =>
    page.locator(`section.trading-chart:has([data-symbol="${symbol}"])`).first();

  const canvasBox = async (page: Page) => {
    const box = await chart(page).getByTestId('chart-canvas').boundingBox();
    if (!box) throw new Error('No chart');
    return box;
  };

  return {
    chart,

    /** The label of a line on the chart, by its accessible name. */
    lineLabel: (page: Page, name: string | RegExp): Locator =>
      chart(page).getByRole('group', { name }),

    /** The instrument's bid as the product quotes it now (the quote cache call), whole dollars. */
    async marketNow(page: Page): Promise<number> {
      const res = await page.request.post('/trading/symbol/cache', {
        data: { channel: 1, device: 1, symbols: symbol },
      });
      const body = (await res.json()) as { data: { caches: { bid: number }[] } };
      const bid = body.data.caches[0]?.bid;
      if (!bid) throw new Error(`No quote of ${symbol}: ${JSON.stringify(body)}`);
      return Math.round(bid);
    },

    /** Drags with the mouse from `fromY` to `toY`, in the middle of the pane or at `atX`. */
    async mouseDrag(page: Page, fromY: number, toY: number, atX?: number): Promise<void> {
      const box = await canvasBox(page);
      const x = atX ?? box.x + box.width * 0.55;
      await page.mouse.move(x, fromY);
      await page.mouse.down();
      await page.mouse.move(x, toY, { steps: 8 });
      await page.mouse.up();
    },

    /** Drags with a finger (touch events through the DevTools protocol, as a phone sends them). */
    async touchDrag(page: Page, fromY: number, toY: number): Promise<void> {
      const box = await canvasBox(page);
      const x = Math.round(box.x + box.width * 0.5);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchStart',
        touchPoints: [{ x, y: Math.round(fromY) }],
      });
      for (let i = 1; i <= 8; i++) {
        const y = Math.round(fromY + ((toY - fromY) * i) / 8);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
    },
  };
}
