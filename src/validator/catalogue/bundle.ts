import type { RuleDef } from '../rules.js';

export const BUNDLE_RULES: readonly RuleDef[] = [];
