; inherits: c_common
; C++ definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; The declarator shapes, typedefs, fields, variables and macros follow c.scm. Members
; defined outside their class (`int Order<T>::total() const`) name the class as their
; `@receiver`, so they read `Order.total`; constructors are the functions without a
; return type in a class body, or named like their class.

; ---- definitions -------------------------------------------------------------

(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace

(class_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name)
         (qualified_identifier name: (type_identifier) @name)]
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)]* @extends)?
  body: (field_declaration_list)) @definition.class
(struct_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name)
         (qualified_identifier name: (type_identifier) @name)]
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)]* @extends)?
  body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.union
; `class DLL_EXPORT Name {...}` misreads as a function `Name` returning `class DLL_EXPORT`
(function_definition
  type: (class_specifier !body)
  [(identifier) @name (ERROR (identifier) @name)]
  body: (compound_statement)) @definition.class
(function_definition
  type: (struct_specifier !body)
  [(identifier) @name (ERROR (identifier) @name)]
  body: (compound_statement)) @definition.struct

(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type

; functions and methods defined here
(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (operator_cast) @name
  ]) @definition.function
(function_definition
  declarator: [
    (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: [(identifier) (destructor_name) (operator_name) (operator_cast)] @name))
    (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: [(identifier) (operator_name)] @name)))
    (reference_declarator (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: [(identifier) (operator_name)] @name)))
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: [(identifier) (destructor_name) (operator_name)] @name)))
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        name: (qualified_identifier
          scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
          name: [(identifier) (destructor_name) (operator_name)] @name))))
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        name: (qualified_identifier
          name: (qualified_identifier
            scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
            name: [(identifier) (destructor_name) (operator_name)] @name)))))
    ; an explicit specialization: `std::string path::string<std::string>() const`
    (function_declarator declarator: (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: (template_function name: (identifier) @name)))
    (function_declarator declarator: (qualified_identifier
      name: (qualified_identifier
        scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
        name: (template_function name: (identifier) @name))))
    (qualified_identifier
      scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
      name: (operator_cast) @name)
  ]) @definition.method
(function_definition
  declarator: (function_declarator declarator: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: (identifier) @name))
  (#eq? @receiver @name)) @definition.constructor
(field_declaration_list
  (function_definition !type declarator: (function_declarator declarator: (identifier) @name)) @definition.constructor)

; a macro after the parameters (`int f() BOOST_NOEXCEPT {`, `void g(void) __THROW {`)
; leaves the declarator in an ERROR node: recover the name from there
(function_definition
  (ERROR (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
  body: (_)) @definition.function
(function_definition
  (ERROR (init_declarator declarator: (identifier) @name value: (argument_list)))
  body: (_)) @definition.function
(function_definition
  declarator: [
    (pointer_declarator (ERROR (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)))
    (reference_declarator (ERROR (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name)))
  ]
  body: (_)) @definition.function
(function_definition
  (ERROR (function_declarator declarator: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: [(identifier) (destructor_name) (operator_name)] @name)))
  body: (_)) @definition.method

; members declared in a class body (defined elsewhere)
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
  ]) @definition.method
(field_declaration_list
  (declaration declarator: (function_declarator declarator: (identifier) @name)
  (#not-match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")) @definition.constructor)
; a macro called in a class body (`FMT_UNCHECKED_ITERATOR(appender);`) reads as a
; constructor's declaration: a constructor has its class's name, never a macro's
(field_declaration_list
  (declaration declarator: (function_declarator declarator: (identifier) @name)
  (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")) @reference.call)
(field_declaration_list
  (declaration declarator: (function_declarator declarator: (destructor_name) @name)) @definition.method)

; static members defined outside their class: `int Order::count = 0;`
(declaration
  declarator: (init_declarator declarator: (qualified_identifier
    scope: [(namespace_identifier) @receiver (template_type name: (type_identifier) @receiver)]
    name: (identifier) @name))) @definition.field

(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member

(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (reference_declarator (field_identifier) @name)
    (array_declarator declarator: (field_identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
  ]) @definition.field
(field_declaration (bitfield_clause) declarator: (field_identifier) @name) @definition.field

; typedef of a reference type (C++ only; the other typedefs come from c_common.scm)
(type_definition declarator: (reference_declarator (type_identifier) @name)) @definition.type

; ---- references --------------------------------------------------------------

(call_expression
  function: (field_expression argument: (_) @qualifier field: [(field_identifier) (template_method)] @name)) @reference.call
(call_expression
  function: (qualified_identifier scope: (_) @qualifier name: [(identifier) @name (template_function name: (identifier) @name)])) @reference.call
; `fmt::detail::write(...)`: the innermost scope qualifies
(call_expression
  function: (qualified_identifier name: (qualified_identifier scope: (_) @qualifier name: [(identifier) @name (template_function name: (identifier) @name)]))) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(new_expression type: [(type_identifier) @name (template_type name: (type_identifier) @name)
                       (qualified_identifier scope: (_) @qualifier name: (type_identifier) @name)]) @reference.call

(using_declaration (qualified_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.import

(_ type: (type_identifier) @name) @reference.type
(_ type: (template_type name: (type_identifier) @name)) @reference.type
(_ type: (qualified_identifier scope: (_) @qualifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])) @reference.type
(template_argument_list (type_descriptor type: (type_identifier) @name)) @reference.type
; a member function passed as a callback: `&DBImpl::BGWork`, `std::bind(&Foo::run, this)`
; (qualified values read otherwise, `level::info`, would be guesses among namesakes)
(pointer_expression argument: (qualified_identifier scope: (_) @qualifier name: (identifier) @name)) @reference.reference
; a template's member read through its type: `is_char<T>::value`
(qualified_identifier scope: (template_type name: (type_identifier) @name)) @reference.type
(struct_specifier name: (type_identifier) @name !body) @reference.type
(class_specifier name: (type_identifier) @name !body) @reference.type
(enum_specifier name: (type_identifier) @name !body) @reference.type

(subscript_expression argument: (identifier) @name) @reference.reference
(subscript_argument_list (identifier) @name) @reference.reference
