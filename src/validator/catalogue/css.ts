import type { RuleDef } from '../rules.js';

export const CSS_RULES: readonly RuleDef[] = [];
