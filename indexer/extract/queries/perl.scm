; Perl definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; `package X;` has no block, so subs are not nested under it; `use parent`/`use base`
; arguments are inherit references.

; ---- definitions -------------------------------------------------------------

(package_statement name: (package) @name) @definition.package
(subroutine_declaration_statement name: (bareword) @name) @definition.function

(use_statement
  module: (package) @_constant
  (list_expression . (autoquoted_bareword) @name)
  (#eq? @_constant "constant")) @definition.constant

(source_file
  (expression_statement
    (assignment_expression
      left: (variable_declaration variable: (_ (varname) @name)))) @definition.variable)

; ---- references --------------------------------------------------------------

(use_statement
  module: (package) @name
  (#not-match? @name "^(strict|warnings|utf8|constant|parent|base|feature|vars|lib|integer|overload)$")) @reference.import
(require_expression (bareword) @name) @reference.import

(use_statement
  module: (package) @_parent
  (list_expression (string_literal (string_content) @name))
  (#any-of? @_parent "parent" "base")) @reference.inherit
(use_statement
  module: (package) @_parent
  (string_literal (string_content) @name)
  (#any-of? @_parent "parent" "base")) @reference.inherit

(function_call_expression function: (function) @name) @reference.call
(ambiguous_function_call_expression function: (function) @name) @reference.call
(method_call_expression invocant: (_) @qualifier method: (method) @name) @reference.call
