; Java definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Annotations sit inside `modifiers`; Javadoc is the block comment before a declaration,
; which the engine reads as a leading-comment doc.

; ---- definitions -------------------------------------------------------------

(class_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  name: (identifier) @name
  superclass: (superclass (_) @extends)?
  interfaces: (super_interfaces (type_list (_)* @implements))?) @definition.class

(record_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  name: (identifier) @name
  interfaces: (super_interfaces (type_list (_)* @implements))?) @definition.class

(interface_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  name: (identifier) @name
  (extends_interfaces (type_list (_)* @extends))?) @definition.interface

(enum_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  name: (identifier) @name
  interfaces: (super_interfaces (type_list (_)* @implements))?) @definition.enum

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_constant name: (identifier) @name) @definition.enum_member

(method_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  name: (identifier) @name) @definition.method

(constructor_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  name: (identifier) @name) @definition.constructor

(compact_constructor_declaration name: (identifier) @name) @definition.constructor

(annotation_type_element_declaration name: (identifier) @name) @definition.method

(field_declaration
  (modifiers [(marker_annotation) (annotation)]* @decorator)?
  declarator: (variable_declarator name: (identifier) @name)) @definition.field

(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; ---- references --------------------------------------------------------------

(method_invocation object: (_) @qualifier name: (identifier) @name) @reference.call
(method_invocation !object name: (identifier) @name) @reference.call

(object_creation_expression type: [
  (type_identifier) @name
  (generic_type (type_identifier) @name)
  (scoped_type_identifier (type_identifier) @name .)
]) @reference.call

(import_declaration (scoped_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.import

(formal_parameter type: [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.type
(field_declaration type: [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.type
(local_variable_declaration type: [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.type
(method_declaration type: [(type_identifier) @name (generic_type (type_identifier) @name)]) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(throws (type_identifier) @name) @reference.type
(catch_type (type_identifier) @name) @reference.type
(cast_expression type: (type_identifier) @name) @reference.type
(instanceof_expression right: (type_identifier) @name) @reference.type

(method_reference . (identifier) @qualifier (identifier) @name .) @reference.reference
(field_access object: (_) @qualifier field: (identifier) @name) @reference.reference
; a field or variable before a dot (`registry.get(k)`, `out.flush()`): its use (a local's
; is the method's own)
(method_invocation object: (identifier) @name (#match? @name "^[a-z_$]")) @reference.reference
(field_access object: (identifier) @name (#match? @name "^[a-z_$]")) @reference.reference
(argument_list (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference

; names used as values: operands, conditions, initializers, array elements, indexes,
; switch labels, loops, annotation arguments, lambda bodies
(binary_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(unary_expression operand: (identifier) @name) @reference.reference
(ternary_expression [condition: (identifier) @name consequence: (identifier) @name alternative: (identifier) @name]) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(variable_declarator value: (identifier) @name) @reference.reference
(array_initializer (identifier) @name) @reference.reference
(array_access [array: (identifier) @name index: (identifier) @name]) @reference.reference
(switch_label (identifier) @name) @reference.reference
(enhanced_for_statement value: (identifier) @name) @reference.reference
(element_value_pair value: (identifier) @name) @reference.reference
(lambda_expression body: (identifier) @name) @reference.reference
(throw_statement (identifier) @name) @reference.reference
(update_expression (identifier) @name) @reference.reference
; a class named before a member (`Node.EMPTY`, `List.of(...)`, `Element::new`)
(field_access object: (identifier) @name (#match? @name "^[A-Z]")) @reference.type
(method_invocation object: (identifier) @name (#match? @name "^[A-Z]")) @reference.type
(method_reference . (identifier) @name (#match? @name "^[A-Z]")) @reference.type
(method_reference . (type_identifier) @name) @reference.type

; types in the other places a type is written
(class_literal (type_identifier) @name) @reference.type
(array_type element: (type_identifier) @name) @reference.type
(array_creation_expression type: (type_identifier) @name) @reference.type
(type_bound (type_identifier) @name) @reference.type
(wildcard (type_identifier) @name) @reference.type
(enhanced_for_statement type: (type_identifier) @name) @reference.type
(scoped_type_identifier (type_identifier) @name .) @reference.type

; the type a variable is declared with (`@alias` names the variable): what a method
; called on it belongs to
(formal_parameter
  type: [(type_identifier) @name (generic_type (type_identifier) @name)]
  name: (identifier) @alias) @reference.type
(local_variable_declaration
  type: [(type_identifier) @name (generic_type (type_identifier) @name)]
  declarator: (variable_declarator name: (identifier) @alias)
  (#not-eq? @name "var")) @reference.type
(field_declaration
  type: [(type_identifier) @name (generic_type (type_identifier) @name)]
  declarator: (variable_declarator name: (identifier) @alias)) @reference.type
(enhanced_for_statement
  type: [(type_identifier) @name (generic_type (type_identifier) @name)]
  name: (identifier) @alias) @reference.type
(local_variable_declaration
  type: (type_identifier) @_var (#eq? @_var "var")
  declarator: (variable_declarator
    name: (identifier) @alias
    value: (object_creation_expression type: [(type_identifier) @name (generic_type (type_identifier) @name)]))) @reference.call
(local_variable_declaration
  type: (type_identifier) @_var (#eq? @_var "var")
  declarator: (variable_declarator
    name: (identifier) @alias
    value: (cast_expression type: [(type_identifier) @name (generic_type (type_identifier) @name)]))) @reference.type
; `var doc = cleaner.clean(dirty)`: what the called method returns
(local_variable_declaration
  type: (type_identifier) @_var (#eq? @_var "var")
  declarator: (variable_declarator
    name: (identifier) @alias
    value: [
      (method_invocation object: (_) @qualifier name: (identifier) @name)
      (method_invocation !object name: (identifier) @name)])) @reference.call

; ---- names a method binds itself (`@local`): its bare uses there are not fields
(formal_parameter name: (identifier) @name @local)
(spread_parameter (variable_declarator name: (identifier) @name @local))
(local_variable_declaration declarator: (variable_declarator name: (identifier) @name @local))
(enhanced_for_statement name: (identifier) @name @local)
(catch_formal_parameter name: (identifier) @name @local)
(lambda_expression parameters: (identifier) @name @local)
(inferred_parameters (identifier) @name @local)
