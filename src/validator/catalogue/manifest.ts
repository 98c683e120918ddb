import type { RuleDef } from '../rules.js';

export const MANIFEST_RULES: readonly RuleDef[] = [];
