// D-17: the one runtime content-security policy, served by `preview`, snapshotted in contract-snapshot/ and reasoned
// about by `check`. A template, as the release base URL is known only at launch: scripts, styles and fonts from it,
// images also `data:`, inline styles allowed, all else 'none'. With `base-uri 'none'` documents resolve relative URLs
// against their own URL, hence the validator resolves entrypoint references against the entrypoint's folder.

/** Placeholder for the release base URL (scheme, host, path ending in `/`). */
export const BASE_URL_PLACEHOLDER = '{base-url}';

/** The policy, with the base URL placeholder. Directive order is fixed: the text is compared in tests. */
export const RUNTIME_POLICY_TEMPLATE = [
  "default-src 'none'",
  `script-src ${BASE_URL_PLACEHOLDER}`,
  `style-src ${BASE_URL_PLACEHOLDER} 'unsafe-inline'`,
  `img-src ${BASE_URL_PLACEHOLDER} data:`,
  `font-src ${BASE_URL_PLACEHOLDER}`,
  "connect-src 'none'",
  "media-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "manifest-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  'sandbox allow-scripts',
].join('; ');

/** The frame's sandbox attribute value (same flags as the policy's `sandbox` directive). */
export const FRAME_SANDBOX = 'allow-scripts';

/** The policy for one release base URL, for example `https://cdn.example/extensions/acme/hello/1.0.0/`. */
export function runtimePolicy(baseUrl: string): string {
  return RUNTIME_POLICY_TEMPLATE.split(BASE_URL_PLACEHOLDER).join(baseUrl);
}

/** Network APIs the policy blocks at run time: a use is a warning (it would fail in production). */
export const BLOCKED_NETWORK_APIS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'navigator.sendBeacon', 'Worker'] as const;
