/** A browser's user agent as "Firefox 128 on macOS"; the raw string when nothing is recognised. */

const BROWSERS: [RegExp, string][] = [
  [/Edg\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* (Mobile\/\S+ )?Safari\//, 'Safari'],
  [/curl\/(\d+)/, 'curl'],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad/, 'iOS'],
  [/Android/, 'Android'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Linux|X11/, 'Linux'],
];

export function browserOf(agent: string): string {
  const browser = BROWSERS.map(([re, name]) => {
    const m = re.exec(agent);
    return m ? `${name} ${m[1]}` : undefined;
  }).find(Boolean);
  const system = SYSTEMS.find(([re]) => re.test(agent))?.[1];
  if (!browser && !system) return agent || 'unknown';
  return [browser ?? 'unknown browser', system && `on ${system}`].filter(Boolean).join(' ');
}
