; Objective-C definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A method's name is its first selector keyword (`initWithName` for initWithName:sides:).
; @interface, its categories and @implementation each give a class definition.

; ---- definitions -------------------------------------------------------------

(class_interface
  . (identifier) @name
  superclass: (identifier)? @extends
  (parameterized_arguments (type_name (type_identifier) @implements))?) @definition.class
(class_implementation . (identifier) @name) @definition.class
; a category (`@interface NSString (Paths)`) is also named by itself, extending its class
(class_interface . (identifier) @extends category: (identifier) @name) @definition.class
(class_implementation . (identifier) @extends category: (identifier) @name) @definition.class
(protocol_declaration
  . (identifier) @name
  (protocol_reference_list (identifier) @extends)?) @definition.interface

(method_declaration . (method_type)? . (identifier) @name) @definition.method
(method_definition . (method_type)? . (identifier) @name) @definition.method
(property_declaration
  (struct_declaration
    (struct_declarator
      [(identifier) @name
       (pointer_declarator declarator: (identifier) @name)]))) @definition.property

(function_definition
  declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) @definition.function

; prototypes at file level, also inside #if blocks (a header's API, as ctags tags them);
; a function body holds none in practice
(_
  (declaration declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator
      declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function)

(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
  ]) @definition.field
; instance variables (`@interface A : B { NSString *_name; }`)
(instance_variable
  (struct_declaration
    (struct_declarator [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (array_declarator declarator: (identifier) @name)
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    ])) @definition.field)
(enum_specifier name: (type_identifier) @name) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro
(translation_unit
  (declaration
    declarator: (init_declarator
      declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name)])) @definition.variable)

; ---- references --------------------------------------------------------------

(preproc_include path: (_) @name) @reference.import

; a macro the preprocessor tests is used (as c_common.scm)
(preproc_ifdef name: (identifier) @name) @reference.reference
(preproc_defined (identifier) @name) @reference.reference
(preproc_if condition: (identifier) @name) @reference.reference
(preproc_elif condition: (identifier) @name) @reference.reference
; ... and the names in a macro's body, text the grammar leaves unparsed (as c_common.scm)
(preproc_def value: (preproc_arg) @name @words) @reference.reference
(preproc_function_def parameters: (preproc_params) @parameters value: (preproc_arg) @name @words) @reference.reference

(call_expression function: (identifier) @name) @reference.call
(message_expression receiver: (_) @qualifier . method: (identifier) @name) @reference.call

(method_type (type_name (type_identifier) @name)) @reference.type
(parameter_declaration type: (type_identifier) @name) @reference.type
(struct_declaration (type_identifier) @name) @reference.type
(declaration type: (type_identifier) @name) @reference.type

(argument_list (identifier) @name) @reference.reference
