; C# definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A base_list does not say which bases are interfaces: by .NET naming, `I` + capital is one.

; ---- definitions -------------------------------------------------------------

(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace

(class_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name) @definition.class
(class_declaration
  name: (identifier) @name
  (base_list [(identifier) (qualified_name) (generic_name)] @extends)
  (#not-match? @extends "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]")) @definition.class
(class_declaration
  name: (identifier) @name
  (base_list [(identifier) (qualified_name) (generic_name)] @implements)
  (#match? @implements "^([A-Za-z_][A-Za-z0-9_]*\\.)*I[A-Z]")) @definition.class

(record_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name
  (base_list [(identifier) (qualified_name) (generic_name)] @extends)?) @definition.class

(struct_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name
  (base_list [(identifier) (qualified_name) (generic_name)] @implements)?) @definition.struct

(interface_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name
  (base_list [(identifier) (qualified_name) (generic_name)] @extends)?) @definition.interface

(enum_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name) @definition.enum
(enum_member_declaration name: (identifier) @name) @definition.enum_member

(delegate_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name) @definition.type

(method_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name) @definition.method
(constructor_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
(operator_declaration operator: _ @name) @definition.operator

(property_declaration
  (attribute_list (attribute) @decorator)*
  name: (identifier) @name) @definition.property
(indexer_declaration "this" @name) @definition.property
(event_declaration name: (identifier) @name) @definition.event
(event_field_declaration
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.event

(field_declaration
  (attribute_list (attribute) @decorator)*
  (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field
(field_declaration
  (modifier) @_const
  (variable_declaration (variable_declarator name: (identifier) @name))
  (#eq? @_const "const")) @definition.constant

; ---- references --------------------------------------------------------------

(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name (identifier) @name)) @reference.call
(invocation_expression
  function: (member_access_expression
    expression: (_) @qualifier
    name: [(identifier) @name (generic_name (identifier) @name)])) @reference.call

; `parent?.Changed(this)`, `a?.B?.C()`, `x = a?.Count`: a member reached when the value is
; not null
(invocation_expression
  function: (conditional_access_expression
    condition: (_) @qualifier
    (member_binding_expression
      name: [(identifier) @name (generic_name (identifier) @name)]))) @reference.call
(conditional_access_expression
  condition: (_) @qualifier
  (member_binding_expression name: (identifier) @name)) @reference.reference
(conditional_access_expression condition: (identifier) @name) @reference.reference

(object_creation_expression type: (identifier) @name) @reference.call
(object_creation_expression type: (generic_name (identifier) @name)) @reference.call
(object_creation_expression type: (qualified_name qualifier: (_) @qualifier name: (_) @name)) @reference.call

(using_directive . (identifier) @name .) @reference.import
(using_directive . (qualified_name qualifier: (_) @qualifier name: (_) @name) .) @reference.import
(using_directive name: (identifier) @alias (identifier) @name) @reference.import
(using_directive name: (identifier) @alias (qualified_name qualifier: (_) @qualifier name: (_) @name)) @reference.import

(parameter type: (identifier) @name) @reference.type
(parameter type: (generic_name (identifier) @name)) @reference.type
(variable_declaration type: (identifier) @name) @reference.type
(variable_declaration type: (generic_name (identifier) @name)) @reference.type
(property_declaration type: (identifier) @name) @reference.type
(property_declaration type: (generic_name (identifier) @name)) @reference.type
(method_declaration returns: (identifier) @name) @reference.type
(method_declaration returns: (generic_name (identifier) @name)) @reference.type
(type_argument_list (identifier) @name) @reference.type
(type_parameter_constraint type: (identifier) @name) @reference.type
(cast_expression type: (identifier) @name) @reference.type
(typeof_expression type: (identifier) @name) @reference.type
(typeof_expression type: (generic_name . (identifier) @name)) @reference.type

(member_access_expression expression: (identifier) @name) @reference.reference
(argument (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference

; names used as values: members read (`Mediator.MaxHandlers`), operands, conditions,
; initializers, returns, elements, switch labels
(member_access_expression expression: (_) @qualifier name: (identifier) @name) @reference.reference
(binary_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(prefix_unary_expression (identifier) @name) @reference.reference
(postfix_unary_expression (identifier) @name) @reference.reference
(conditional_expression [condition: (identifier) @name consequence: (identifier) @name alternative: (identifier) @name]) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference
(variable_declarator (identifier) (identifier) @name) @reference.reference
(initializer_expression (identifier) @name) @reference.reference
(element_access_expression expression: (identifier) @name) @reference.reference
(constant_pattern (identifier) @name) @reference.reference
(throw_statement (identifier) @name) @reference.reference
(arrow_expression_clause (identifier) @name) @reference.reference
(lambda_expression body: (identifier) @name) @reference.reference
(interpolation (identifier) @name) @reference.reference

; types in the other places a type is written: constraints, nested generics, catch,
; arrays, nullable, `is`/`as`, bases of records, attributes
(type_parameter_constraint type: (generic_name (identifier) @name)) @reference.type
(type_argument_list (generic_name (identifier) @name)) @reference.type
(catch_declaration type: (identifier) @name) @reference.type
(array_type type: (identifier) @name) @reference.type
(nullable_type type: (identifier) @name) @reference.type
(is_pattern_expression pattern: (type_pattern type: (identifier) @name)) @reference.type
(declaration_pattern type: (identifier) @name) @reference.type
(as_expression right: (identifier) @name) @reference.type
(field_declaration (variable_declaration type: (identifier) @name)) @reference.type
(base_list (generic_name (identifier) @name)) @reference.type
(base_list (primary_constructor_base_type type: (generic_name (identifier) @name))) @reference.type
(type_argument_list (qualified_name name: (identifier) @name)) @reference.type
(foreach_statement type: (identifier) @name) @reference.type

; the type a variable is declared with (`@alias` names the variable): what a method
; called on it belongs to (`outbox.Send()` with `var outbox = new Outbox()`)
(parameter type: [(identifier) @name (generic_name (identifier) @name)] name: (identifier) @alias) @reference.type
; a property, read bare inside its class (`Enum.AddRangeDistinct(x)`) or through a value
(property_declaration type: [(identifier) @name (generic_name (identifier) @name)] name: (identifier) @alias) @reference.type
(variable_declaration
  type: [(identifier) @name (generic_name (identifier) @name)]
  (variable_declarator name: (identifier) @alias)) @reference.type
(variable_declaration
  type: (implicit_type)
  (variable_declarator
    name: (identifier) @alias
    (object_creation_expression type: [(identifier) @name (generic_name (identifier) @name)]))) @reference.call
; `var doc = cleaner.Clean(dirty)`: what the called method returns
(variable_declaration
  type: (implicit_type)
  (variable_declarator
    name: (identifier) @alias
    (invocation_expression function: [
      (identifier) @name
      (member_access_expression expression: (_) @qualifier name: (identifier) @name)]))) @reference.call

; ---- names a method binds itself (`@local`): its bare uses there are not members
(parameter name: (identifier) @name @local)
(variable_declarator name: (identifier) @name @local)
(foreach_statement left: (identifier) @name @local)
(catch_declaration name: (identifier) @name @local)
