; Erlang definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Each clause of a function is its own fun_decl here, so a multi-clause function gives
; one definition per clause, as ctags reports it.

; ---- definitions -------------------------------------------------------------

(module_attribute name: (atom) @name) @definition.module
(fun_decl clause: (function_clause name: (atom) @name)) @definition.function
(record_decl name: (atom) @name) @definition.struct
(record_decl fields: (record_field name: (atom) @name) @definition.field)
(type_alias name: (type_name name: (atom) @name)) @definition.type
(opaque name: (type_name name: (atom) @name)) @definition.type
(pp_define lhs: (macro_lhs name: (_) @name)) @definition.macro
(callback fun: (atom) @name) @definition.method

; ---- references --------------------------------------------------------------

(behaviour_attribute name: (atom) @name) @reference.implement
(pp_include file: (string) @name) @reference.import
(pp_include_lib file: (string) @name) @reference.import

(call expr: (atom) @name) @reference.call
(call expr: (remote module: (remote_module module: (atom) @qualifier) fun: (atom) @name)) @reference.call
(macro_call_expr name: (_) @name) @reference.reference
(record_expr name: (record_name name: (atom) @name)) @reference.type
(fa fun: (atom) @name) @reference.reference
