; Scala 2/3 definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; In `extends A with B with C` the first type is the superclass (extends) and the mixed-in
; traits are implements.

; ---- definitions -------------------------------------------------------------

(package_clause name: (package_identifier) @name) @definition.package

(class_definition
  (annotation)* @decorator
  name: (identifier) @name
  extend: (extends_clause . type: (_) @extends)?) @definition.class
(class_definition
  name: (identifier) @name
  extend: (extends_clause
    [(type_identifier) (generic_type) (stable_type_identifier)]
    [(type_identifier) (generic_type) (stable_type_identifier)] @implements)) @definition.class

(object_definition
  (annotation)* @decorator
  name: (identifier) @name
  extend: (extends_clause . type: (_) @extends)?) @definition.object
(object_definition
  name: (identifier) @name
  extend: (extends_clause
    [(type_identifier) (generic_type) (stable_type_identifier)]
    [(type_identifier) (generic_type) (stable_type_identifier)] @implements)) @definition.object

(trait_definition (annotation)* @decorator name: (identifier) @name) @definition.trait
(trait_definition
  name: (identifier) @name
  extend: (extends_clause [(type_identifier) (generic_type) (stable_type_identifier)] @extends)) @definition.trait

(enum_definition
  (annotation)* @decorator
  name: (identifier) @name
  extend: (extends_clause [(type_identifier) (generic_type) (stable_type_identifier)] @implements)?) @definition.enum
(simple_enum_case name: (identifier) @name) @definition.enum_member
(full_enum_case name: (identifier) @name) @definition.enum_member

(type_definition name: (type_identifier) @name) @definition.type

(function_definition
  (annotation)* @decorator
  name: (_) @name) @definition.function
(function_declaration
  (annotation)* @decorator
  name: (_) @name) @definition.function
(function_definition name: (identifier) @name (#eq? @name "this")) @definition.constructor

(class_definition
  class_parameters: (class_parameters
    (class_parameter ["val" "var"] name: (identifier) @name) @definition.field))
(class_definition
  "case"
  class_parameters: (class_parameters
    (class_parameter name: (identifier) @name) @definition.field))

(compilation_unit (val_definition (annotation)* @decorator pattern: (identifier) @name) @definition.variable)
(compilation_unit (var_definition (annotation)* @decorator pattern: (identifier) @name) @definition.variable)
(template_body (val_definition (annotation)* @decorator pattern: (identifier) @name) @definition.variable)
(template_body (var_definition (annotation)* @decorator pattern: (identifier) @name) @definition.variable)
(template_body (val_declaration name: (identifier) @name) @definition.variable)
(template_body (var_declaration name: (identifier) @name) @definition.variable)

; ---- references --------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @qualifier field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @qualifier field: (identifier) @name))) @reference.call
(instance_expression (type_identifier) @name) @reference.call

(import_declaration . (identifier) @name .) @reference.import
(import_declaration
  . (identifier) @qualifier
  (identifier) @name @qualifier .) @reference.import
(import_declaration
  . (identifier) @qualifier
  . (namespace_selectors
      [(identifier) @name
       (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @reference.import
(import_declaration
  . (identifier) @qualifier
  (identifier) @qualifier
  . (namespace_selectors
      [(identifier) @name
       (arrow_renamed_identifier name: (identifier) @name alias: (identifier) @alias)])) @reference.import

(parameter type: (type_identifier) @name) @reference.type
(class_parameter type: (type_identifier) @name) @reference.type
(function_definition return_type: (type_identifier) @name) @reference.type
(function_declaration return_type: (type_identifier) @name) @reference.type
(val_definition type: (type_identifier) @name) @reference.type
(var_definition type: (type_identifier) @name) @reference.type
(val_declaration type: (type_identifier) @name) @reference.type
(generic_type type: (type_identifier) @name) @reference.type
(generic_type type: (stable_type_identifier (type_identifier) @name)) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(type_definition type: (type_identifier) @name) @reference.type

(field_expression value: (identifier) @name) @reference.reference
(arguments (identifier) @name) @reference.reference
; names as values: operands (`n + LIMIT`, `-STEP`), interpolations (`s"$PREFIX"`),
; initializers and assigned values, conditions and branches, `match` subjects and cases'
; results, tuple elements
(infix_expression left: (identifier) @name) @reference.reference
(infix_expression right: (identifier) @name) @reference.reference
(prefix_expression (identifier) @name) @reference.reference
(interpolation (identifier) @name) @reference.reference
(interpolation (block (identifier) @name)) @reference.reference
(val_definition value: (identifier) @name) @reference.reference
(var_definition value: (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(if_expression [consequence: (identifier) @name alternative: (identifier) @name]) @reference.reference
(match_expression value: (identifier) @name) @reference.reference
(case_clause body: (identifier) @name) @reference.reference
(tuple_expression (identifier) @name) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the
; object's or the package's definitions of the same name (parameters, vals and vars)
(parameter name: (identifier) @name @local)
(val_definition pattern: (identifier) @name @local)
(var_definition pattern: (identifier) @name @local)
