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
  function: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
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
