/**
 * Texts of a chart shown in a child frame. They belong in i18n/messages.ts (`chart.frame`);
 * they live here until that file is free to change (see the frames issue's report).
 */
export const frameTexts = {
  notInMainWindow: 'Not inside the main window',
  notInMainWindowHint:
    'Live prices, code runs and chart markers come from the trading terminal’s main window. Open this page inside it, or open it on its own.',
  retry: 'Retry',
  priceUpdate: (price: string, simulated: boolean) =>
    `PRICE_UPDATE ${price}${simulated ? ' (simulated)' : ''}`,
  priceUpdateHint: 'The last price the performance page posted to this frame',
} as const;
