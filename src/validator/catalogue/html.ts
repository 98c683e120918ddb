import type { RuleDef } from '../rules.js';

export const HTML_RULES: readonly RuleDef[] = [];
