; Haskell definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Top-level functions are taken at their equations (one definition per clause, as ctags
; does); type-class methods at their signatures; data types are structs whose data
; constructors are its members (LSP EnumMember).

; ---- definitions -------------------------------------------------------------

(header module: (module) @name) @definition.module

(class name: (name) @name) @definition.interface
(class_declarations (signature name: (variable) @name) @definition.method)

(data_type name: (name) @name) @definition.struct
(newtype name: (name) @name) @definition.struct
(data_constructor constructor: (_ name: (constructor) @name)) @definition.enum_member
(newtype_constructor name: (constructor) @name) @definition.enum_member
(field (field_name (variable) @name)) @definition.field
(type_synomym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type

; an instance is an object named after its type, as a Rust impl is (`instance ToJSON Value`:
; Value, `instance ToJSON (Const a b)`: Const; extract/haskell.py names it), the class
; recorded as implemented; over a type variable, a list or a tuple it keeps the class's
; name; its equations are its methods
(instance name: (name) @name @implements) @definition.object
(instance_declarations (function name: (variable) @name) @definition.method)
(instance_declarations (bind name: (variable) @name) @definition.method)
(instance_declarations (function name: (prefix_id (operator) @name)) @definition.method)
(instance_declarations (bind name: (prefix_id (operator) @name)) @definition.method)

(declarations (function name: (variable) @name) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)
; operators, defined prefix (`(.:?) = ...`) or infix (`a .:! b = ...`)
(declarations (function name: (prefix_id (operator) @name)) @definition.function)
(declarations (bind name: (prefix_id (operator) @name)) @definition.function)
(declarations (function (infix operator: (operator) @name)) @definition.function)
(class_declarations (signature name: (prefix_id (operator) @name)) @definition.method)

; ---- references --------------------------------------------------------------

(import module: (module) @name alias: (module)? @alias) @reference.import
; a module's export list names what it gives its importers (a library's API)
(exports (export variable: (variable) @name)) @reference.reference
(exports (export type: (name) @name)) @reference.type
(exports (export operator: (prefix_id (operator) @name))) @reference.reference
(deriving classes: (tuple (name) @name)) @reference.implement
(deriving classes: (name) @name) @reference.implement

(apply function: (variable) @name) @reference.call
(apply function: (qualified module: (module) @qualifier id: (variable) @name)) @reference.call
(apply function: (constructor) @name) @reference.call
(infix left_operand: (variable) @name) @reference.reference
(infix right_operand: (variable) @name) @reference.reference
; a value named as an argument, an element or a binding's whole value (`mkFunCommon
; consFromJSON`, `[(ParseJSON, consFromJSON)]`, `parseJSON = genericParseJSON`)
; (inside a function only, and not one it binds: `@free`, `@local` below)
(apply argument: (variable) @name @free) @reference.reference
(tuple element: (variable) @name @free) @reference.reference
(list element: (variable) @name @free) @reference.reference
(match expression: (variable) @name @free) @reference.reference
; Template Haskell's names of definitions: `'noObjectFail`, `[|noArrayFail|]`
(th_quoted_name name: (variable) @name) @reference.reference
(quoted_expression (variable) @name @free) @reference.reference
; an operator applied (`a <^> b`, a function between backticks, `(<^>) a`), but the
; Prelude's commonest, which a workspace seldom defines (each a reference to resolve;
; `#not-any-of?` with several values matches all in py-tree-sitter 0.26.1: a regex)
(infix operator: [(operator) @name (infix_id (variable) @name)]
  (#not-match? @name "^([.$+*/:-]|[=/<>]=|[<>]|&&|[|][|]|[+][+]|<[$*]>|>>=?|<>|[$]!|!!|<[$*]|[*]>|=<<|>=>|<[|]>)$")) @reference.call
(apply function: (prefix_id (operator) @name)) @reference.call
(apply argument: (prefix_id (operator) @name)) @reference.reference

(signature type: (name) @name) @reference.type
(function parameter: (name) @name) @reference.type
(function result: (name) @name) @reference.type
(list element: (name) @name) @reference.type
(apply argument: (name) @name) @reference.type
(field type: (name) @name) @reference.type

; ---- names a function binds (`@local`): its parameters (in constructor patterns too,
; an operator's `a |+| b`), a lambda's, a `case` alternative's, its `where` and `let`
; bindings, a do block's `x <- ...`; their bare uses there (`@free`) are not the module's definitions of those
; names (an instance's clauses and patterns are left as they were)
[
  (patterns (variable) @name)
  (patterns (_ (variable) @name))
  (patterns (_ (_ (variable) @name)))
  (function (infix [left_operand: (variable) @name right_operand: (variable) @name]))
  (alternative pattern: (variable) @name)
  (alternative pattern: (_ (variable) @name))
  (alternative pattern: (_ (_ (variable) @name)))
  (bind pattern: (variable) @name)
  (bind pattern: (_ (variable) @name))
  (local_binds (bind name: (variable) @name))
  (local_binds (function name: (variable) @name))] @local
