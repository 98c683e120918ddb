// D-17: the one runtime content-security policy. `preview` serves it for the frame,
// contract-snapshot/runtime-policy.txt is generated from it, and `check` reasons about
// what it blocks (remote references, inline script, connections, workers, frames...).
//
// The release base URL is only known at launch, so the policy is a template with one
// placeholder. Sources: scripts, styles, fonts from the base URL; images also `data:`;
// inline <style> and style="" allowed; everything else 'none'. `base-uri 'none'` means
// documents resolve relative URLs against their own URL, which is why the validator
// resolves entrypoint references against the entrypoint's own folder.

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
