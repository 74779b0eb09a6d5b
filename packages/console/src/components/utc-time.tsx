import { formatUtcDate, formatUtcTime } from '../lib/format-date.ts';
import classes from './utc-time.module.css';

/**
 * spec §9: a time as `D Mon YYYY HH:MM:SS` in UTC, machine-readable in `dateTime`. On a phone the
 * clock may go under the date, so a table column of times stays narrow.
 */
export function UtcTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} className={classes.time}>
      <span className={classes.part}>{formatUtcDate(iso)}</span> <span className={classes.part}>{formatUtcTime(iso)}</span>
    </time>
  );
}
