import type { Rule } from 'eslint'

export declare const pageCodeOnly: Rule.RuleModule
