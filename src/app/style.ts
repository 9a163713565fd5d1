/**
 * Under NO_COLOR the app sets FORCE_COLOR=0 before Ink loads, which turns off
 * every style, inverse included; components that rely on inverse (selection,
 * text cursor) draw a visible glyph instead.
 */
export const plain = (): boolean => process.env.FORCE_COLOR === '0' || Boolean(process.env.NO_COLOR);
