// Version numbers of the contract the snapshot describes (contract "Versioning"). They are
// not limits, so limits.ts does not hold them; the protocol version is the bridge's own
// constant, and the other two are pinned here once for every generated file.
// Through the validator's index: platform-review (built from dist/validator.mjs alone) reads
// CONTRACT_VERSION for its reports.
import { PROTOCOL_VERSION } from '../validator/internal.js';

/** The contract version the tool enforces (contract "Versioning": 1). */
export const CONTRACT_VERSION = 1;
/** `schema_version` of the manifest (closed at 1). */
export const MANIFEST_SCHEMA_VERSION = 1;
/** `protocol_version` of the manifest and the bridge (closed at 1). */
export const BRIDGE_PROTOCOL_VERSION: typeof PROTOCOL_VERSION = PROTOCOL_VERSION;
