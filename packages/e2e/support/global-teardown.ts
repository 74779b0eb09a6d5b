import { existsSync, readFileSync, rmSync } from 'node:fs';
import { stateFile } from './global-setup.ts';

export default async function globalTeardown(): Promise<void> {
  if (!existsSync(stateFile)) return;
  const { pid } = JSON.parse(readFileSync(stateFile, 'utf8')) as { pid: number };
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  rmSync(stateFile);
}
