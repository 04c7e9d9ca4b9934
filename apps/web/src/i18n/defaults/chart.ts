/** The spec's texts of the charts after the first screen: the drawing style bar. */
export const chart = {
  /** The selected drawing's style bar (colour, width, line, a rectangle's fill). */
  drawingStyle: {
    bar: (name: string) => `${name} style`,
    color: 'Colour',
    width: 'Line width',
    line: 'Line style',
    fill: 'Fill',
    colorNamed: (name: string) => `Colour: ${name}`,
    widthNamed: (px: number) => `Line width: ${px} px`,
    lineNamed: (name: string) => `Line style: ${name}`,
    fillNamed: (name: string) => `Fill: ${name}`,
    px: (px: number) => `${px} px`,
    lines: { solid: 'Solid', dashed: 'Dashed', dotted: 'Dotted' },
    noFill: 'None',
    percent: (opacity: number) => `${Math.round(opacity * 100)}%`,
    /** Names of the palette's colours, by hex. */
    colors: {
      '#2962ff': 'Blue',
      '#f23645': 'Red',
      '#089981': 'Green',
      '#ef6c00': 'Orange',
      '#ab47bc': 'Purple',
      '#0097a7': 'Cyan',
      '#e91e63': 'Pink',
      '#787b86': 'Grey',
    } as Record<string, string>,
    /** A colour outside the palette (saved by another client). */
    custom: (hex: string) => hex,
  },
} as const;
