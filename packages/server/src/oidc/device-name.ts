/** The longest device name kept (a user agent is the client's to choose). */
const NAME_MAX = 100;

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/**
 * A device's name from the browser that registered it ("Chrome on Linux"), as the issue asks; the
 * user may edit it later. Unrecognised agents are named "Unknown device".
 */
export function deviceNameFromUserAgent(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  const name = browser && system ? `${browser} on ${system}` : (browser ?? system ?? 'Unknown device');
  return name.slice(0, NAME_MAX);
}
