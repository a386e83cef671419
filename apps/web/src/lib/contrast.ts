/**
 * WCAG 2 colour contrast of CSS colours (`#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()` / `rgba()`), as axe-core
 * measures it: a translucent colour is first laid over the (opaque) background it is drawn on.
 */

type Rgba = [number, number, number, number];

export function parseColor(color: string): Rgba {
  const c = color.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,8})$/.exec(c)?.[1];
  if (hex && [3, 6, 8].includes(hex.length)) {
    const full = hex.length === 3 ? [...hex].map((d) => d + d).join('') : hex;
    const [r, g, b, a = 255] = full.match(/../g)!.map((p) => parseInt(p, 16));
    return [r, g, b, a / 255];
  }
  const fn = /^rgba?\(([^)]+)\)$/.exec(c)?.[1];
  if (fn) {
    const [r, g, b, a = 1] = fn
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r, g, b, a];
  }
  throw new Error(`not a colour: ${color}`);
}

/** `color` drawn over the opaque `background`, as an opaque `#rrggbb`. */
export function flatten(color: string, background: string): string {
  const [r, g, b, a] = parseColor(color);
  const [br, bg, bb] = parseColor(background);
  const mix = (f: number, k: number) => Math.round(f * a + k * (1 - a));
  return `#${[mix(r, br), mix(g, bg), mix(b, bb)].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

const luminance = (color: string): number => {
  const [r, g, b] = parseColor(color).map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** The contrast ratio (1–21) of `foreground` drawn on the opaque `background`. */
export function contrast(foreground: string, background: string): number {
  const [a, b] = [luminance(flatten(foreground, background)), luminance(background)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
