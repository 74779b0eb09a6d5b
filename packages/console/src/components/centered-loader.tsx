import classes from './centered-loader.module.css';

interface CenteredLoaderProps {
  label: string;
  /** Fill the whole viewport (before any layout exists) rather than the content area. */
  fullScreen?: boolean;
}

/** A page or the console loading: the kit's dots and what is loading, announced politely. */
export function CenteredLoader({ label, fullScreen = false }: CenteredLoaderProps) {
  return (
    <div className={fullScreen ? `${classes.center} ${classes.fullScreen}` : classes.center} role="status" aria-live="polite">
      <div className={classes.stack}>
        <span className={classes.dots} aria-hidden="true">
          <span className={classes.dot} />
          <span className={classes.dot} />
          <span className={classes.dot} />
        </span>
        <p className={classes.label}>{label}</p>
      </div>
    </div>
  );
}
