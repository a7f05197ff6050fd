; OCaml definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A `let` with parameters (or bound to `fun`/`function`) is a function, any other a value;
; only bindings at the top of a file or a module count, not `let ... in` locals.
; Variant constructors (and polymorphic variant tags) are enum members of their type;
; exceptions are types.

; ---- definitions -------------------------------------------------------------

(module_definition (module_binding (module_name) @name) @definition.module)
(module_type_definition (module_type_name) @name) @definition.interface

[(compilation_unit) (structure)]
  (value_definition (let_binding pattern: (value_name) @name (parameter)) @definition.function)
[(compilation_unit) (structure)]
  (value_definition
    (let_binding pattern: (value_name) @name body: [(fun_expression) (function_expression)]) @definition.function)
[(compilation_unit) (structure)]
  (value_definition (let_binding pattern: (value_name) @name) @definition.variable)
; An operator, `let ( >>= ) m f = ...` or `let ( % ) = Int.logor`: named by the operator.
[(compilation_unit) (structure)]
  (value_definition (let_binding pattern: (parenthesized_operator (_) @name)) @definition.function)
(value_specification (value_name) @name) @definition.function
(external (value_name) @name) @definition.function

(type_binding name: (type_constructor) @name body: (record_declaration)) @definition.struct
(type_binding name: (type_constructor) @name body: (variant_declaration)) @definition.enum
(type_binding name: (type_constructor) @name equation: (polymorphic_variant_type)) @definition.enum
(type_binding name: (type_constructor) @name) @definition.type
(variant_declaration (constructor_declaration (constructor_name) @name) @definition.enum_member)
; A polymorphic variant's tags, `` type t = [ `Null | `Int of int ] ``: named without the backquote.
(type_binding
  equation: (polymorphic_variant_type (tag_specification (tag) @name) @definition.enum_member))
(field_declaration (field_name) @name) @definition.field
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.type

(class_binding (class_name) @name) @definition.class
(method_definition (method_name) @name) @definition.method
(instance_variable_definition (instance_variable_name) @name) @definition.field

; ---- references --------------------------------------------------------------

(open_module module: (module_path) @name) @reference.import
(include_module module: (module_path) @name) @reference.import

(application_expression function: (value_path . (value_name) @name)) @reference.call
(application_expression
  function: (value_path (module_path) @qualifier (value_name) @name)) @reference.call
(module_application functor: (module_path (module_name) @name .)) @reference.call

(application_expression argument: (value_path . (value_name) @name)) @reference.reference
(type_constructor_path (type_constructor) @name) @reference.type
(constructor_path (constructor_name) @name) @reference.reference
