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
(deriving classes: (tuple (name) @name)) @reference.implement
(deriving classes: (name) @name) @reference.implement

(apply function: (variable) @name) @reference.call
(apply function: (qualified module: (module) @qualifier id: (variable) @name)) @reference.call
(apply function: (constructor) @name) @reference.call
(infix left_operand: (variable) @name) @reference.reference
(infix right_operand: (variable) @name) @reference.reference

(signature type: (name) @name) @reference.type
(function parameter: (name) @name) @reference.type
(function result: (name) @name) @reference.type
(list element: (name) @name) @reference.type
(apply argument: (name) @name) @reference.type
(field type: (name) @name) @reference.type
