// `preview` as a use case: the preview server for one project folder, on the loopback
// interface only (D-25), checking the project with the project pipeline on start and after
// every change. Returns the running session; the caller prints, and stops it.
import { createPreviewServer, type CheckSummary, type PreviewAssets, type PreviewServer } from '../preview/server.js';

export type { CheckSummary, PreviewAssets, PreviewServer };

export interface PreviewSessionOptions {
  readonly dir: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Capabilities declared but not granted when the page opens (`--deny`). */
  readonly deny: readonly string[];
  /** Capabilities whose calls reject with REQUEST_FAILED (`--fail`). */
  readonly fail: readonly string[];
  /** Capabilities whose calls reject with another error code (`--fail key=CODE`). */
  readonly failCodes?: Readonly<Record<string, string>>;
  /** `--upgrade-from`: the release folder the page runs first. */
  readonly upgradeFrom?: string;
  readonly emptyCatalog: boolean;
  readonly strictHost: boolean;
  /** Told after every re-check that a change caused. */
  readonly onCheck?: (summary: CheckSummary) => void;
  /** Told the URL as soon as the server listens, before the first check. */
  readonly onListening?: (url: string) => void;
  /** Assets to serve instead of the embedded ones (tests running from build/). */
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
