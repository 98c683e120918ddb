// `preview` as a use case: the preview server on loopback only (D-25), re-checking on every change.
import { createPreviewServer, type CheckSummary, type PreviewAssets, type PreviewServer } from '../preview/server.js';

export type { CheckSummary, PreviewAssets, PreviewServer };

export interface PreviewSessionOptions {
  readonly dir: string;
  readonly port: number;
  readonly deny: readonly string[];
  readonly fail: readonly string[];
  readonly failCodes?: Readonly<Record<string, string>>;
  readonly upgradeFrom?: string;
  readonly emptyCatalog: boolean;
  readonly strictHost: boolean;
  readonly onCheck?: (summary: CheckSummary) => void;
  /** Told the URL as soon as the server listens, before the first check. */
  readonly onListening?: (url: string) => void;
  /** Instead of the embedded assets (tests running from build/). */
  readonly assets?: PreviewAssets;
}

/** Rejects with a UsageError when the port is taken or the folder cannot be read. */
export function previewSession(options: PreviewSessionOptions): Promise<PreviewServer> {
  const { dir, onCheck, onListening, assets, ...rest } = options;
  return createPreviewServer({
    ...rest,
    projectDir: dir,
    host: '127.0.0.1',
    ...(onCheck !== undefined && { onCheck }),
    ...(onListening !== undefined && { onListening }),
    ...(assets !== undefined && { assets }),
  });
}
