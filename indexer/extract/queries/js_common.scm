; What JavaScript and TypeScript (and so TSX) read alike, inherited by javascript.scm
; and typescript.scm (`; inherits: js_common`): variables, object-literal members,
; calls, `new` and imports. Not a language.

; ---- definitions -------------------------------------------------------------

(function_expression name: (identifier) @name) @definition.function

; variables (the engine drops those inside functions); holding a function, a function
(variable_declarator name: (identifier) @name) @definition.variable
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @name
    (pair_pattern value: (identifier) @name)
  ]) @definition.variable)

; members of object literals: `const api = { fetch() {}, version: 2 }`
(pair key: [(property_identifier) @name (string (string_fragment) @name)]) @definition.property
(pair
  key: [(property_identifier) @name (string (string_fragment) @name)]
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; ---- references --------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (member_expression object: (_) @qualifier property: [(property_identifier) (private_property_identifier)] @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression
  constructor: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call

(import_statement
  (import_clause (named_imports (import_specifier name: (identifier) @name alias: (identifier)? @alias)))
  source: (string (string_fragment) @qualifier)) @reference.import
(import_statement
  (import_clause (identifier) @name)
  source: (string (string_fragment) @qualifier)) @reference.import
(import_statement
  (import_clause (namespace_import (identifier) @alias))
  source: (string (string_fragment) @name)) @reference.import

; re-exports of a barrel file (`export { map } from "./ops"`, `export * from "./all"`,
; `export * as ns from "./ns"`): imports the linker follows to the defining module
(export_statement
  (export_clause (export_specifier name: (identifier) @name alias: (identifier)? @alias))
  source: (string (string_fragment) @qualifier)) @reference.import
(export_statement
  "*" @name
  source: (string (string_fragment) @qualifier)) @reference.import
(export_statement
  (namespace_export (identifier) @alias)
  source: (string (string_fragment) @name)) @reference.import

; names used as values: operands (`x instanceof Foo`), initializers, object and array
; members (`{ Foo, b: bar }`), conditions, spreads, `export default Foo`, `export { Foo }`
(binary_expression left: (identifier) @name) @reference.reference
(binary_expression right: (identifier) @name) @reference.reference
(variable_declarator value: (identifier) @name) @reference.reference
(pair value: (identifier) @name) @reference.reference
(object (shorthand_property_identifier) @name) @reference.reference
(array (identifier) @name) @reference.reference
(ternary_expression (identifier) @name) @reference.reference
(spread_element (identifier) @name) @reference.reference
(unary_expression argument: (identifier) @name) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(await_expression (identifier) @name) @reference.reference
(subscript_expression object: (identifier) @name) @reference.reference
(subscript_expression index: (identifier) @name) @reference.reference
(arrow_function body: (identifier) @name) @reference.reference
(template_substitution (identifier) @name) @reference.reference
(export_statement value: (identifier) @name) @reference.reference
(sequence_expression (identifier) @name) @reference.reference
(switch_case value: (identifier) @name) @reference.reference
(throw_statement (identifier) @name) @reference.reference
(yield_expression (identifier) @name) @reference.reference
(for_in_statement right: (identifier) @name) @reference.reference
(computed_property_name (identifier) @name) @reference.reference
; a counter or accumulator updated in place (`index = counter++`, `total += step`)
(update_expression argument: (identifier) @name) @reference.reference
(augmented_assignment_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
; a member read through `this` and not called (`callbacks.push(this.handler)`,
; `setTimeout(this.tick, 10)`): a use of the method; `this.handler()` stays a call
(member_expression object: (this) @qualifier property: [(property_identifier) (private_property_identifier)] @name) @reference.reference
(export_statement (export_clause (export_specifier name: (identifier) @name)) !source) @reference.reference

; the value a variable holds, from its constructor or the call it is the result of
; (`const c = new Client()`, `this.h = h || new Headers()`, `const r = await c.send()`):
; what a method called on it belongs to (`@alias` names the variable, `this.x` a member)
(variable_declarator name: (identifier) @alias value: [
    (new_expression constructor: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)])
    (call_expression function: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)])
    (await_expression (call_expression function: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)]))
    (binary_expression right: (new_expression constructor: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)]))
  ]) @reference.call
(assignment_expression
  left: [(identifier) (member_expression object: (this) property: (property_identifier))] @alias
  right: [
    (new_expression constructor: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)])
    (call_expression function: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)])
    (await_expression (call_expression function: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)]))
    (binary_expression right: (new_expression constructor: [(identifier) @name (member_expression object: (_) @qualifier property: (property_identifier) @name)]))
  ]) @reference.call

; imports by call and for their side effects: `require('./mod')`, `import('./mod')`,
; `import './polyfill'` (the module is the name, as in `import * as m`)
(import_statement . source: (string (string_fragment) @name)) @reference.import
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @name))
  (#eq? @_require "require")) @reference.import
; `var compile = require('./compile')`: the variable is the module, as in `import * as m`
(variable_declarator
  name: (identifier) @alias
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @name)))
  (#eq? @_require "require")) @reference.import
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @name))) @reference.import
; `var etag = require('./utils').compileETag`: a named import of what the module exports
(variable_declarator
  name: (identifier) @alias
  value: (member_expression
    object: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @qualifier)))
    property: (property_identifier) @name)
  (#eq? @_require "require")) @reference.import
; `const { parse, format: fmt } = require('./url')`: named imports, as `import { ... }`
(variable_declarator
  name: (object_pattern
    [(shorthand_property_identifier_pattern) @name
     (pair_pattern key: (property_identifier) @name value: (identifier) @alias)])
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @qualifier)))
  (#eq? @_require "require")) @reference.import
