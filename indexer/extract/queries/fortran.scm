; Fortran definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Modules and programs are modules, derived types structs with their components as fields
; and type-bound procedures as methods; functions and subroutines are functions.
; Variables count at module and program level only (a procedure's are locals).

; ---- definitions -------------------------------------------------------------

(module (module_statement (name) @name)) @definition.module
(program (program_statement (name) @name)) @definition.module
(submodule (submodule_statement (name) @name)) @definition.module

(derived_type_definition (derived_type_statement (type_name) @name)) @definition.struct
(binding (binding_name (identifier) @name)) @definition.method
; `generic :: operator(==) => eq`: the operator is a method of the type, named `==`.
(binding (binding_name (operator (operator_name) @name))) @definition.method
; `procedure :: info` (no `=>`): a type-bound procedure named like its implementation.
(derived_type_procedures
  (procedure_statement declarator: (method_name) @name) @definition.method)
(interface (interface_statement (name) @name)) @definition.interface

(function (function_statement name: (name) @name)) @definition.function
(subroutine (subroutine_statement name: (name) @name)) @definition.function
(module_procedure (module_procedure_statement name: (name) @name)) @definition.function

; a declaration's names: a derived type's components (fields, as the symbol builder
; nests them), a module's or a main program's variables; a procedure's are locals, which
; the builder drops
(variable_declaration
  declarator: [
    (identifier) @name
    (sized_declarator (identifier) @name)
    (init_declarator left: (identifier) @name)
  ]) @definition.variable

; ---- references --------------------------------------------------------------

(use_statement (module_name) @name) @reference.import
(call_expression . (identifier) @name) @reference.call
(subroutine_call subroutine: (identifier) @name) @reference.call
(derived_type name: (type_name) @name) @reference.type
(procedure_statement declarator: (method_name) @name) @reference.reference
(binding (method_name) @name) @reference.reference
