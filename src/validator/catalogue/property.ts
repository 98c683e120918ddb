import type { RuleDef } from '../rules.js';

export const PROPERTY_RULES: readonly RuleDef[] = [];
