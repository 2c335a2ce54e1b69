// An ESLint rule for code that runs in Node but hands functions to a browser page (Playwright's
// page.evaluate, the journeys' driver.evaluate and waitFor, Puppeteer's $eval): a browser-only
// global (window, document, requestAnimationFrame…) is an error anywhere but inside such a
// function. A function counts when it is written as the call's argument or passed by the name
// it was declared with in the same file. With no page calls configured (server code), every
// browser-only global is an error.

/** @typedef {import('eslint').Rule.Node} Node */
/** @typedef {import('eslint').Scope.Scope} Scope */

const isFunction = (/** @type {{ type: string } | null | undefined} */ node) =>
  node?.type === 'ArrowFunctionExpression' ||
  node?.type === 'FunctionExpression' ||
  node?.type === 'FunctionDeclaration'

/** The name a call is made by: `evaluate` for `page.evaluate(…)`, `waitFor` for `waitFor(…)`. */
function calleeName(/** @type {import('estree').CallExpression} */ call) {
  const { callee } = call
  if (callee.type === 'Identifier') return callee.name
  if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier')
    return callee.property.name
  return undefined
}

/** The function a name was declared as in this file (`const f = () => …`, `function f() {}`). */
function declaredFunction(/** @type {Scope} */ scope, /** @type {string} */ name) {
  for (let current = /** @type {Scope | null} */ (scope); current; current = current.upper) {
    const variable = current.set.get(name)
    if (!variable) continue
    const definition = variable.defs[0]?.node
    if (isFunction(definition)) return definition
    if (definition?.type === 'VariableDeclarator' && isFunction(definition.init))
      return definition.init
    return undefined
  }
  return undefined
}

/** @type {import('eslint').Rule.RuleModule} */
export const pageCodeOnly = {
  meta: {
    type: 'problem',
    docs: { description: 'Browser globals only inside functions handed to a page' },
    schema: [
      {
        type: 'object',
        properties: {
          browserGlobals: { type: 'array', items: { type: 'string' } },
          pageCalls: { type: 'array', items: { type: 'string' } },
        },
        required: ['browserGlobals'],
        additionalProperties: false,
      },
    ],
    messages: {
      outsidePage:
        "'{{name}}' is a browser global, and this code runs in Node: use it only inside a function handed to the page ({{calls}}).",
      inNode: "'{{name}}' is a browser global, and this code runs in Node.",
    },
  },
  create(context) {
    const { browserGlobals, pageCalls = [] } = context.options[0]
    const browserOnly = new Set(browserGlobals)
    const calls = new Set(pageCalls)
    /** @type {Set<unknown>} */
    const pageFunctions = new Set()

    const insidePageFunction = (/** @type {Node} */ node) => {
      for (let current = node.parent; current; current = current.parent)
        if (pageFunctions.has(current)) return true
      return false
    }

    return {
      CallExpression(node) {
        const name = calleeName(node)
        if (name === undefined || !calls.has(name)) return
        for (const argument of node.arguments) {
          if (isFunction(argument)) pageFunctions.add(argument)
          else if (argument.type === 'Identifier') {
            const declared = declaredFunction(context.sourceCode.getScope(node), argument.name)
            if (declared) pageFunctions.add(declared)
          }
        }
      },
      'Program:exit'(program) {
        const globalScope = context.sourceCode.getScope(program)
        const references = [
          ...globalScope.through,
          ...globalScope.variables.flatMap((variable) => variable.references),
        ]
        for (const reference of references) {
          const { identifier } = reference
          // A type (`as HTMLInputElement`) is erased: only values run.
          if (!('name' in identifier) || !browserOnly.has(identifier.name)) continue
          if ('isValueReference' in reference && reference.isValueReference === false) continue
          if (insidePageFunction(/** @type {Node} */ (identifier))) continue
          context.report({
            node: identifier,
            messageId: calls.size > 0 ? 'outsidePage' : 'inNode',
            data: { name: identifier.name, calls: [...calls].join(', ') },
          })
        }
      },
    }
  },
}
