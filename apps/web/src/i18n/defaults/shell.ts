/** The spec's texts of the app's frame after the first screen (network, phone bar, chart page). */
export const shell = {
  network: {
    title: 'Network Connection Error',
    content:
      'The network connection may have been interrupted. Refresh the page to get the latest data?',
    refresh: 'Refresh',
    cancel: 'Cancel',
  },
  narrow: {
    bottomBar: 'Main navigation',
    trading: 'Trading',
    my: 'My',
    chart: 'Chart',
    account: 'Account',
    currentAccount: 'Current account',
    switchAccount: 'Switch trading account',
  },
  chartPage: {
    loading: 'Loading instruments and strategy template...',
  },
} as const;
