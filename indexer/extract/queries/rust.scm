; Rust definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; An `impl` block is an `object` named after its type (as rust-analyzer shows it), so the
; functions inside are that type's methods (`Order.total`); `impl Trait for T` records
; the trait as implemented. Attributes (`#[derive(...)]`) precede an item as siblings.

; ---- definitions -------------------------------------------------------------

(struct_item name: (type_identifier) @name) @definition.struct
((attribute_item (attribute) @decorator)+ . (struct_item name: (type_identifier) @name) @definition.struct)
(union_item name: (type_identifier) @name) @definition.union
(enum_item name: (type_identifier) @name) @definition.enum
((attribute_item (attribute) @decorator)+ . (enum_item name: (type_identifier) @name) @definition.enum)
(enum_variant name: (identifier) @name) @definition.enum_member
(field_declaration name: (field_identifier) @name) @definition.field

(trait_item
  name: (type_identifier) @name
  bounds: (trait_bounds [(type_identifier) (scoped_type_identifier) (generic_type)] @extends)?) @definition.trait

(impl_item
  trait: [(type_identifier) (scoped_type_identifier) (generic_type)]? @implements
  type: [
    (type_identifier) @name
    (generic_type type: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
    (scoped_type_identifier name: (type_identifier) @name)
    (reference_type type: [
      (type_identifier) @name
      (generic_type type: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
      (scoped_type_identifier name: (type_identifier) @name)
      (array_type element: (type_identifier) @name)
      (dynamic_type trait: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
    ])
    (array_type element: (type_identifier) @name)
    (dynamic_type trait: [(type_identifier) @name (scoped_type_identifier name: (type_identifier) @name)])
  ]) @definition.object
; `impl Trait for ()` and tuples: named after the trait, as ctags does
(impl_item
  trait: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
  ] @implements
  type: [(unit_type) (tuple_type) (pointer_type) (function_type) (never_type)]) @definition.object

(function_item name: (identifier) @name) @definition.function
((attribute_item (attribute) @decorator)+ . (function_item name: (identifier) @name) @definition.function)
(function_signature_item name: (identifier) @name) @definition.function

(macro_definition name: (identifier) @name) @definition.macro
(mod_item name: (identifier) @name) @definition.module

(type_item name: (type_identifier) @name) @definition.type
(associated_type name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.variable

; ---- references --------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression value: (_) @qualifier field: (field_identifier) @name)) @reference.call
(call_expression
  function: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.call
(call_expression
  function: (generic_function function: [
    (identifier) @name
    (scoped_identifier path: (_) @qualifier name: (identifier) @name)
    (field_expression value: (_) @qualifier field: (field_identifier) @name)
  ])) @reference.call
(macro_invocation macro: (identifier) @name) @reference.call
(struct_expression name: [
  (type_identifier) @name
  (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)
]) @reference.call

(use_declaration argument: (identifier) @name) @reference.import
(use_declaration argument: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @reference.import
(use_declaration
  argument: (use_as_clause
    path: [(identifier) @name (scoped_identifier path: (_) @qualifier name: (identifier) @name)]
    alias: (identifier) @alias)) @reference.import
(scoped_use_list path: (_) @qualifier list: (use_list (identifier) @name)) @reference.import
(scoped_use_list path: (_) @qualifier list: (use_list (scoped_identifier name: (identifier) @name))) @reference.import

(_ type: (type_identifier) @name) @reference.type
(_ type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)) @reference.type
(_ return_type: (type_identifier) @name) @reference.type
(_ return_type: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(trait_bounds (type_identifier) @name) @reference.type

(arguments (identifier) @name) @reference.reference
(return_expression (identifier) @name) @reference.reference

; names used as values: operands, initializers, fields, elements, conditions, macro
; arguments (`vec![Value::Null]`, `write!(f, "{}", MAX_DEPTH)`)
(binary_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(unary_expression (identifier) @name) @reference.reference
(reference_expression value: (identifier) @name) @reference.reference
(let_declaration value: (identifier) @name) @reference.reference
(field_initializer value: (identifier) @name) @reference.reference
(shorthand_field_initializer (identifier) @name) @reference.reference
; a generic function named as a value (`object_drop: object_drop::<E>`, `f(g::<T>)`)
(generic_function function: (identifier) @name) @reference.reference
(array_expression (identifier) @name) @reference.reference
(tuple_expression (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference
(compound_assignment_expr right: (identifier) @name) @reference.reference
(index_expression (identifier) @name) @reference.reference
(range_expression (identifier) @name) @reference.reference
(match_expression value: (identifier) @name) @reference.reference
(if_expression condition: (identifier) @name) @reference.reference
(closure_expression body: (identifier) @name) @reference.reference
(static_item value: (identifier) @name) @reference.reference
(const_item value: (identifier) @name) @reference.reference
(token_tree (identifier) @name) @reference.reference
(field_expression value: (identifier) @qualifier field: (field_identifier) @name) @reference.reference
; the value before the dot (`REGISTRY.lock()`, `LIMIT.to_string()`; a local is dropped)
(field_expression value: (identifier) @name) @reference.reference
(scoped_identifier path: (_) @qualifier name: (identifier) @name) @reference.reference

; a type or module named before a member (`Error::Syntax(..)`, `Compact::new()`)
(scoped_identifier path: (identifier) @name) @reference.type
(scoped_type_identifier path: (identifier) @name) @reference.type
(array_type element: (type_identifier) @name) @reference.type
(tuple_type (type_identifier) @name) @reference.type
(dynamic_type trait: (type_identifier) @name) @reference.type
(abstract_type trait: (type_identifier) @name) @reference.type
(bounded_type (type_identifier) @name) @reference.type
(where_predicate left: (type_identifier) @name) @reference.type

; the type a variable is declared with (`@alias` names the variable): what a method
; called on it belongs to (`writer.write_value()` with `let writer = Compact::new()`)
(parameter
  pattern: (identifier) @alias
  type: [
    (type_identifier) @name
    (reference_type type: (type_identifier) @name)
    (generic_type type: (type_identifier) @name)
    (reference_type type: (generic_type type: (type_identifier) @name))
  ]) @reference.type
(let_declaration
  pattern: [(identifier) @alias (mut_pattern (identifier) @alias)]
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.type
(let_declaration
  pattern: [(identifier) @alias (mut_pattern (identifier) @alias)]
  !type
  value: (call_expression
    function: (scoped_identifier path: (identifier) @name name: (identifier) @_new (#eq? @_new "new")))) @reference.type
(let_declaration
  pattern: [(identifier) @alias (mut_pattern (identifier) @alias)]
  !type
  value: (struct_expression name: (type_identifier) @name)) @reference.call

; ---- names a function binds itself (`@local`): its bare uses there are not the
; module's definitions of those names
(parameter pattern: (identifier) @name @local)
(parameter pattern: (mut_pattern (identifier) @name @local))
(let_declaration pattern: (identifier) @name @local)
(let_declaration pattern: (mut_pattern (identifier) @name @local))
(let_declaration pattern: (tuple_pattern (identifier) @name @local))
(for_expression pattern: (identifier) @name @local)
(closure_parameters (identifier) @name @local)
(tuple_struct_pattern (identifier) @name @local)
(match_pattern (identifier) @name @local)
