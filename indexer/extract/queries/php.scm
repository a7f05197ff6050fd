; PHP definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A trait pulled into a class with `use T;` is recorded as implements.

; ---- definitions -------------------------------------------------------------

(namespace_definition name: (namespace_name) @name) @definition.namespace

(class_declaration
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  name: (name) @name
  (base_clause [(name) (qualified_name)] @extends)?
  (class_interface_clause [(name) (qualified_name)] @implements)?) @definition.class
(class_declaration
  name: (name) @name
  body: (declaration_list (use_declaration [(name) (qualified_name)] @implements))) @definition.class

(interface_declaration
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  name: (name) @name
  (base_clause [(name) (qualified_name)] @extends)?) @definition.interface

(trait_declaration
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  name: (name) @name) @definition.trait

(enum_declaration
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  name: (name) @name
  (class_interface_clause [(name) (qualified_name)] @implements)?) @definition.enum
(enum_case name: (name) @name) @definition.enum_member

(function_definition
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  name: (name) @name) @definition.function

(method_declaration
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  name: (name) @name) @definition.method
(method_declaration
  name: (name) @name
  (#eq? @name "__construct")) @definition.constructor

(property_declaration
  attributes: (attribute_list (attribute_group (attribute) @decorator))?
  (property_element name: (variable_name (name) @name))) @definition.property

(const_declaration (const_element (name) @name)) @definition.constant
(function_call_expression
  function: (name) @_define
  arguments: (arguments . (argument (string (string_content) @name)))
  (#eq? @_define "define")) @definition.constant

; ---- references --------------------------------------------------------------

(function_call_expression function: (name) @name) @reference.call
(function_call_expression
  function: (qualified_name prefix: (_) @qualifier (name) @name)) @reference.call
(member_call_expression object: (_) @qualifier name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @qualifier name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @qualifier name: (name) @name) @reference.call
(object_creation_expression (name) @name (#not-match? @name "^(static|self|parent)$")) @reference.call
(object_creation_expression (qualified_name prefix: (_) @qualifier (name) @name)) @reference.call

(namespace_use_declaration
  (namespace_use_clause
    . [(name) @name (qualified_name prefix: (_) @qualifier (name) @name)]
    alias: (name)? @alias)) @reference.import
(namespace_use_declaration
  (namespace_name) @qualifier
  body: (namespace_use_group
    (namespace_use_clause . (name) @name alias: (name)? @alias))) @reference.import

(named_type (name) @name (#not-match? @name "^(static|self|parent)$")) @reference.type
(named_type (qualified_name (name) @name)) @reference.type

(class_constant_access_expression . (name) @name) @reference.reference
; a class's constant (`K::PREFIX`, `self::OTHER`), and a constant as a value: an operand,
; an argument, an element, an index, a condition's branch, a returned or assigned value
(class_constant_access_expression . (_) @qualifier . (name) @name .) @reference.reference
(binary_expression (name) @name) @reference.reference
(unary_op_expression (name) @name) @reference.reference
(argument !name . (name) @name) @reference.reference
(argument name: (name) (name) @name) @reference.reference
(array_element_initializer (name) @name) @reference.reference
(subscript_expression (name) @name) @reference.reference
(conditional_expression (name) @name) @reference.reference
(return_statement (name) @name) @reference.reference
(assignment_expression right: (name) @name) @reference.reference
(scoped_property_access_expression scope: (name) @name) @reference.reference
; a static property read (`self::$registry`, `Cache::$items`)
(scoped_property_access_expression
  scope: (_) @qualifier
  name: (variable_name (name) @name)) @reference.reference
