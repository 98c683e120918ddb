// The ten stable error codes of a rejected bridge call (contract "Errors"): the code is permanent, the message free.
import { INITIALIZATION_TIMEOUT_MS, MAX_PENDING_CALLS, MESSAGE_MAX_BYTES, REQUEST_TIMEOUT_MS } from '../limits.js';
import { groupDigits } from '../text.js';

/** Code -> the contract's condition, in the contract's table order. Numbers come from limits.ts. */
export const BRIDGE_ERROR_CODES = Object.freeze({
  CAPABILITY_NOT_GRANTED: 'The capability was not declared, not granted, or was later revoked',
  ADAPTER_UNAVAILABLE: 'The site cannot provide the operation (for example, no valid text-message link or the related feature is not configured)',
  INVALID_REQUEST: 'The action or payload failed validation',
  INVALID_PAYLOAD: 'A value cannot cross the bridge (function, DOM node, class instance, non-finite number, prototype key)',
  INITIALIZATION_TIMEOUT: `No valid channel within ${groupDigits(INITIALIZATION_TIMEOUT_MS)} ms`,
  REQUEST_TIMEOUT: `No response within ${groupDigits(REQUEST_TIMEOUT_MS)} ms`,
  TOO_MANY_REQUESTS: `The frame already has ${groupDigits(MAX_PENDING_CALLS)} pending calls`,
  PAYLOAD_TOO_LARGE: `Serialized request exceeds ${groupDigits(MESSAGE_MAX_BYTES)} bytes`,
  PAYLOAD_TOO_COMPLEX: 'Depth, node or collection limits exceeded',
  REQUEST_FAILED: 'The host rejected the operation with no more specific public code',
} as const);

export type BridgeErrorCode = keyof typeof BRIDGE_ERROR_CODES;

/** The codes in table order. */
export const BRIDGE_ERROR_CODE_LIST: readonly BridgeErrorCode[] = Object.freeze(Object.keys(BRIDGE_ERROR_CODES) as BridgeErrorCode[]);

/** The error shape carried by a failed response: `{code, message}`; `message` never holds host internals. */
export interface BridgeError {
  readonly code: BridgeErrorCode;
  readonly message: string;
}

/** True for exactly the ten codes (own keys only: `toString` is not a code). */
export function isBridgeErrorCode(value: unknown): value is BridgeErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(BRIDGE_ERROR_CODES, value);
}

export function defaultErrorMessage(code: BridgeErrorCode): string {
  return BRIDGE_ERROR_CODES[code];
}
