import classes from './project-logo.module.css';

/** The logo a project shows until it sets its own (spec §2 "Project list": a default logo if none). */
export function DefaultLogo({ label }: { label: string }) {
  return (
    <svg className={classes.logo} viewBox="0 0 48 48" role="img" aria-label={label} focusable="false">
      <rect width="48" height="48" rx="12" className={classes.defaultBackground} />
      <circle cx="24" cy="20" r="7" fill="none" stroke="currentColor" strokeWidth="4" />
      <rect x="21.5" y="26" width="5" height="11" rx="1.5" fill="currentColor" />
    </svg>
  );
}
