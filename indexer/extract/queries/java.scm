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
(argument_list (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference
