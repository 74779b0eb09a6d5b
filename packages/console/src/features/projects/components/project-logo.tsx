import { useState } from 'react';
import { DefaultLogo } from './default-logo.tsx';
import classes from './project-logo.module.css';

interface ProjectLogoProps {
  name: string;
  logoUrl: string;
}

/** The project's logo, or the default one if it has none or it fails to load. */
export function ProjectLogo({ name, logoUrl }: ProjectLogoProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (!logoUrl || failedUrl === logoUrl) return <DefaultLogo label={name} />;
  return <img className={classes.logo} src={logoUrl} alt={name} loading="lazy" referrerPolicy="no-referrer" onError={() => setFailedUrl(logoUrl)} />;
}
