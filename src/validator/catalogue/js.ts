import type { RuleDef } from '../rules.js';

export const JS_RULES: readonly RuleDef[] = [];
