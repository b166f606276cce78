import { stat } from 'node:fs/promises';
import { STAT_TIMEOUT_MS } from './constants';

export type DirProbe = 'present' | 'missing' | 'timeout';

/**
 * Whether `path` is a directory, answered within a deadline: a stat on a dead network mount can
 * hang for minutes, and the picker must not wait for it.
 */
export async function probeDir(path: string, timeoutMs = STAT_TIMEOUT_MS): Promise<DirProbe> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<DirProbe>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref();
  });
  const probe = stat(path).then(
    (s): DirProbe => (s.isDirectory() ? 'present' : 'missing'),
    (): DirProbe => 'missing',
  );
  try {
    return await Promise.race([probe, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
